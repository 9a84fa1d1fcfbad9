package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/event"
)

// turnSession is the part of *engine.Session a headless run uses.
type turnSession interface {
	Events() <-chan event.Event
	Submit(prompt string) error
	Interrupt()
	SetModel(name string)
}

// headlessRun is what -p, or --input-format stream-json, asks for.
type headlessRun struct {
	prompt, format string
	// noWait exits when the turn ends, naming the background sub-agents
	// still running, instead of waiting for them.
	noWait bool
	// wake says a background result starts a turn of its own, so one
	// that waits keeps the run going ([subagents] wake_on_result).
	wake bool
	// self is how the person starts this baton again, for the hints.
	self selfCommand
	// input, when set, is stdin carrying Claude Code's stream-json: the
	// prompts come from there, one run each, instead of from -p.
	input io.Reader
	// print is what the Claude Code formats say about the session; the
	// session's own facts are added once it exists.
	print printOptions
	// commands are the custom slash commands a prompt may call, and
	// types the agent types their sub-tasks may name.
	commands []agenttypes.Command
	types    []agenttypes.Type
}

// runHeadless runs the prompt, waits for the background sub-agents it
// started (and the turns their results wake) unless told not to, and
// prints it all in the chosen format; with stream-json input it does so
// for every prompt stdin brings, until it ends. The session does not
// inherit ctx's cancellation: a signal interrupts the turn instead, so
// the partial answer is still printed.
func runHeadless(ctx context.Context, ecfg engine.Config, run headlessRun, stdout, stderr io.Writer) int {
	var in *streamInput
	if run.input != nil {
		in = newStreamInput(run.input, &lineWriter{w: stdout}, stderr, run)
		defer in.stop()
		first, ok := in.setUp(ctx, &ecfg)
		if !ok {
			return exitOK
		}
		run.prompt = first
	}
	s, err := engine.NewSession(context.WithoutCancel(ctx), ecfg)
	if err != nil {
		fmt.Fprintf(stderr, "baton: %v\n", err)
		return exitFailed
	}
	defer s.Close()
	for _, note := range append(s.StartNotes(), s.ResumeNotes()...) {
		fmt.Fprintf(stderr, "baton: note: %s\n", note)
	}
	run.print.info = sessionInfo(s, ecfg, run.print.info)
	p := newPrinter(run.format, stdout, stderr, run.print)
	run.wake = !ecfg.NoWakeOnResult
	code := exitOK
	for {
		code = runPrompt(ctx, s, ecfg, run, in, p, stderr)
		if in == nil || code == exitInterrupted {
			return code
		}
		next, ok := in.next(ctx, s)
		if !ok {
			return code
		}
		run.prompt = next
	}
}

// runPrompt plays one prompt's run and prints its outcome.
func runPrompt(ctx context.Context, s *engine.Session, ecfg engine.Config, run headlessRun, in *streamInput, p printer, stderr io.Writer) int {
	prompt, notes := expandCommand(run.prompt, run.commands, run.types, s.Model())
	for _, n := range notes {
		fmt.Fprintf(stderr, "baton: note: %s\n", n)
	}
	run.prompt = prompt
	start := time.Now()
	o, signalled, err := playTurn(ctx, s, run, p, in)
	if err != nil {
		fmt.Fprintf(stderr, "baton: %v\n", err)
		return exitFailed
	}
	o.Duration = time.Since(start)
	o.Model = s.Model()
	o.SessionID, o.Transcript = s.ID(), s.TranscriptFile()
	o.Sandbox = ecfg.Sandbox.Label()
	o.Worktrees, o.Merges = s.Kept(), s.Merges()
	for _, m := range o.Merges {
		fmt.Fprintf(stderr, "baton: %s\n", mergeLine(m))
	}
	for _, k := range o.Worktrees {
		fmt.Fprintf(stderr, "baton: kept worktree %s on branch %s (%s: %s)\n", k.Path, k.Branch, k.Agent, k.Change)
	}
	o.Background = s.BackgroundChildren()
	if running := stillRunning(o.Background); len(running) > 0 {
		fmt.Fprintf(stderr, "baton: not waiting for background sub-agents: %s; they stop now, and %s delivers what they left to the main agent\n", strings.Join(running, ", "), run.self.with("--continue"))
	}
	if err := p.finish(o); err != nil {
		fmt.Fprintf(stderr, "baton: %v\n", err)
		return exitFailed
	}
	if run.format != formatText && o.Err != "" {
		// The JSON formats carry the error on stdout; a person watching
		// the run still gets it as one line, as in text mode.
		fmt.Fprintf(stderr, "error: %s\n", oneLine(o.Err, maxLine))
	}
	code := exitCode(o.Status, signalled)
	if code == exitOK && mergeFailed(o.Merges) {
		return exitFailed
	}
	return code
}

// mergeLine says what --worktrees apply did with one run's changes.
func mergeLine(m child.Merge) string {
	ids := make([]string, len(m.Applied))
	for i, id := range m.Applied {
		ids[i] = string(id)
	}
	switch {
	case m.Failed:
		return "--worktrees apply applied nothing, your tree is unchanged: " + oneLine(m.Reason, maxLine)
	case m.Verified:
		return "applied the changes of " + strings.Join(ids, ", ") + " (merged result verified ✓)"
	}
	return "applied the changes of " + strings.Join(ids, ", ") + " (merged result not verified: no verify command)"
}

// mergeFailed reports whether --worktrees apply left any merge out.
func mergeFailed(merges []child.Merge) bool {
	for _, m := range merges {
		if m.Failed {
			return true
		}
	}
	return false
}

// stillRunning names the background children that have not ended.
func stillRunning(children []child.BackgroundChild) []string {
	var out []string
	for _, c := range children {
		if c.Status == event.StatusRunning {
			out = append(out, fmt.Sprintf("%s (#%d)", c.ID, c.Number))
		}
	}
	return out
}

// playTurn submits the prompt and feeds every event to p until the main
// agent's turn ends and, unless noWait, every background child it started
// ended and the turns their results woke are over. Meanwhile it answers
// the control requests stdin brings, when it brings any. It decides from the
// events it has read, never from the session's state, which may be ahead
// of them. When ctx ends during a turn it interrupts it and keeps reading,
// so the turn's last events are printed too; between turns it stops at
// once. signalled reports either.
func playTurn(ctx context.Context, s turnSession, run headlessRun, p printer, in *streamInput) (o outcome, signalled bool, err error) {
	if err := s.Submit(run.prompt); err != nil {
		return o, false, fmt.Errorf("submit prompt: %w", err)
	}
	done := ctx.Done()
	events := s.Events()
	work := openWork{inTurn: true, background: map[event.AgentID]bool{}, ended: map[event.AgentID]bool{}, results: map[event.AgentID]bool{}}
	for {
		select {
		case line, ok := <-in.lines():
			in.during(line, ok, s)
		case <-done:
			signalled, done = true, nil
			if !work.inTurn {
				return o, true, nil
			}
			s.Interrupt()
		case ev, ok := <-events:
			if !ok {
				return endedEarly(o, signalled), signalled, nil
			}
			p.event(ev)
			if in != nil {
				in.watch(ev)
			}
			if ended, isEnd := record(&o, ev); isEnd {
				o.addTurn(ended)
			}
			work.note(ev)
			if !work.inTurn && (run.noWait || signalled || work.settled(run.wake)) {
				return o, signalled, nil
			}
		}
	}
}

// openWork is what the events read so far leave open: the main agent's
// turn, background children running, results not yet delivered.
type openWork struct {
	inTurn     bool
	background map[event.AgentID]bool
	ended      map[event.AgentID]bool
	results    map[event.AgentID]bool
}

// note updates the open work with one event. A child is in the
// background from its AgentBackgrounded until its ResultQueued, whichever
// the channel brings first (its AgentFinished may come before the turn
// ends, its result after); a result waits from ResultQueued, which the
// engine always sends before ResultDelivered, unless it waits for the
// person (Waits, or ResultsHeld once the prompt's wake turns are spent).
func (w *openWork) note(ev event.Event) {
	switch e := ev.(type) {
	case event.TurnStarted:
		w.inTurn = w.inTurn || e.Agent == event.MainAgent
	case event.TurnEnded:
		w.inTurn = w.inTurn && e.Agent != event.MainAgent
	case event.AgentBackgrounded:
		w.background[e.Agent] = !w.ended[e.Agent]
	case event.ResultQueued:
		w.ended[e.Agent] = true
		delete(w.background, e.Agent)
		if !e.Waits {
			w.results[e.Agent] = true
		}
	case event.ResultsHeld:
		for _, child := range e.Children {
			delete(w.results, child)
		}
	case event.ResultDelivered:
		delete(w.results, e.Child)
	}
}

// settled reports whether nothing more will happen without a prompt: no
// background child runs, and no result waits for a turn that will start
// on its own.
func (w *openWork) settled(wake bool) bool {
	running := 0
	for _, on := range w.background {
		if on {
			running++
		}
	}
	return running == 0 && (len(w.results) == 0 || !wake)
}

// record notes what the outcome needs from ev and returns the main
// agent's TurnEnded when ev is one. Approvals need no answer here: in
// ModeHeadless and ModeYolo the engine decides them and never waits.
func record(o *outcome, ev event.Event) (event.TurnEnded, bool) {
	switch ev := ev.(type) {
	case event.ErrorOccurred:
		if ev.Agent == event.MainAgent {
			o.Err = strings.TrimSpace(ev.Message)
		}
	case event.TurnEnded:
		return ev, ev.Agent == event.MainAgent
	}
	return event.TurnEnded{}, false
}

// endedEarlyMessage describes a session that closed its events mid-turn.
const endedEarlyMessage = "the session ended before the turn finished"

// endedEarly completes an outcome whose session closed without a
// TurnEnded (it was cancelled underneath the turn).
func endedEarly(o outcome, signalled bool) outcome {
	if signalled {
		o.Status = event.StatusInterrupted
		return o
	}
	o.Status = event.StatusFailed
	if o.Err == "" {
		o.Err = endedEarlyMessage
	}
	return o
}
