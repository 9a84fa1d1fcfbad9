package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/seed-e4e525a6/baton/engine"
)

// turnSession is the part of *engine.Session a headless run uses.
type turnSession interface {
	Events() <-chan engine.Event
	Submit(prompt string) error
	Interrupt()
	// Quiet reports whether nothing more happens without a prompt: no
	// turn and no background sub-agent runs, and no result will wake one.
	Quiet() bool
}

// headlessRun is what -p asks for.
type headlessRun struct {
	prompt, format string
	// noWait exits when the turn ends, naming the background sub-agents
	// still running, instead of waiting for them.
	noWait bool
}

// runHeadless runs the prompt, waits for the background sub-agents it
// started (and the turns their results wake) unless told not to, and
// prints it all in the chosen format. The session does not inherit ctx's
// cancellation: a signal interrupts the turn instead, so the partial
// answer is still printed.
func runHeadless(ctx context.Context, ecfg engine.Config, run headlessRun, stdout, stderr io.Writer) int {
	s, err := engine.NewSession(context.WithoutCancel(ctx), ecfg)
	if err != nil {
		fmt.Fprintf(stderr, "baton: %v\n", err)
		return exitFailed
	}
	defer s.Close()
	for _, note := range append(s.StartNotes(), s.ResumeNotes()...) {
		fmt.Fprintf(stderr, "baton: note: %s\n", note)
	}
	p := newPrinter(run.format, stdout, stderr)
	start := time.Now()
	o, signalled, err := playTurn(ctx, s, run.prompt, run.noWait, p)
	if err != nil {
		fmt.Fprintf(stderr, "baton: %v\n", err)
		return exitFailed
	}
	o.Duration = time.Since(start)
	o.Model = s.Model()
	o.SessionID, o.Transcript = s.ID(), s.TranscriptFile()
	o.Sandbox = ecfg.Sandbox.Label()
	o.Background = s.BackgroundChildren()
	if running := stillRunning(o.Background); len(running) > 0 {
		fmt.Fprintf(stderr, "baton: not waiting for background sub-agents: %s; they stop now, and baton --continue delivers what they left to the main agent\n", strings.Join(running, ", "))
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
	return exitCode(o.Status, signalled)
}

// stillRunning names the background children that have not ended.
func stillRunning(children []engine.BackgroundChild) []string {
	var out []string
	for _, c := range children {
		if c.Status == engine.StatusRunning {
			out = append(out, fmt.Sprintf("%s (#%d)", c.ID, c.Number))
		}
	}
	return out
}

// playTurn submits the prompt and feeds every event to p until the main
// agent's turn ends and, unless noWait, the session is quiet: every
// background child ended and the turns their results woke are over. When
// ctx ends during a turn it interrupts it and keeps reading, so the turn's
// last events are printed too; between turns it stops at once. signalled
// reports either.
func playTurn(ctx context.Context, s turnSession, prompt string, noWait bool, p printer) (o outcome, signalled bool, err error) {
	if err := s.Submit(prompt); err != nil {
		return o, false, fmt.Errorf("submit prompt: %w", err)
	}
	done := ctx.Done()
	events := s.Events()
	inTurn := true
	for {
		select {
		case <-done:
			signalled, done = true, nil
			if !inTurn {
				return o, true, nil
			}
			s.Interrupt()
		case ev, ok := <-events:
			if !ok {
				return endedEarly(o, signalled), signalled, nil
			}
			p.event(ev)
			ended, isEnd := record(&o, ev)
			if isEnd {
				o.addTurn(ended)
				inTurn = false
			}
			if started, ok := ev.(engine.TurnStarted); ok && started.Agent == engine.MainAgent {
				inTurn = true
			}
			if _, queued := ev.(engine.ResultQueued); (isEnd || queued) && !inTurn && (noWait || signalled || s.Quiet()) {
				return o, signalled, nil
			}
		}
	}
}

// record notes what the outcome needs from ev and returns the main
// agent's TurnEnded when ev is one. Approvals need no answer here: in
// ModeHeadless and ModeYolo the engine decides them and never waits.
func record(o *outcome, ev engine.Event) (engine.TurnEnded, bool) {
	switch ev := ev.(type) {
	case engine.ErrorOccurred:
		if ev.Agent == engine.MainAgent {
			o.Err = strings.TrimSpace(ev.Message)
		}
	case engine.TurnEnded:
		return ev, ev.Agent == engine.MainAgent
	}
	return engine.TurnEnded{}, false
}

// endedEarlyMessage describes a session that closed its events mid-turn.
const endedEarlyMessage = "the session ended before the turn finished"

// endedEarly completes an outcome whose session closed without a
// TurnEnded (it was cancelled underneath the turn).
func endedEarly(o outcome, signalled bool) outcome {
	if signalled {
		o.Status = engine.StatusInterrupted
		return o
	}
	o.Status = engine.StatusFailed
	if o.Err == "" {
		o.Err = endedEarlyMessage
	}
	return o
}
