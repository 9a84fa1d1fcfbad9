package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/seed-e4e525a6/baton/engine"
)

// turnSession is the part of *engine.Session a headless turn uses.
type turnSession interface {
	Events() <-chan engine.Event
	Submit(prompt string) error
	Interrupt()
}

// runHeadless runs one turn of the prompt and prints it in the chosen
// format. The session does not inherit ctx's cancellation: a signal
// interrupts the turn instead, so the partial answer is still printed.
func runHeadless(ctx context.Context, ecfg engine.Config, prompt, format string, stdout, stderr io.Writer) int {
	s, err := engine.NewSession(context.WithoutCancel(ctx), ecfg)
	if err != nil {
		fmt.Fprintf(stderr, "baton: %v\n", err)
		return exitFailed
	}
	defer s.Close()
	for _, note := range append(s.StartNotes(), s.ResumeNotes()...) {
		fmt.Fprintf(stderr, "baton: note: %s\n", note)
	}
	p := newPrinter(format, stdout, stderr)
	start := time.Now()
	o, signalled, err := playTurn(ctx, s, prompt, p)
	if err != nil {
		fmt.Fprintf(stderr, "baton: %v\n", err)
		return exitFailed
	}
	o.Duration = time.Since(start)
	o.Model = s.Model()
	o.SessionID, o.Transcript = s.ID(), s.TranscriptFile()
	o.Sandbox = ecfg.Sandbox.Label()
	o.Worktrees = s.Kept()
	for _, k := range o.Worktrees {
		fmt.Fprintf(stderr, "baton: kept worktree %s on branch %s (%s: %s)\n", k.Path, k.Branch, k.Agent, k.Change)
	}
	if err := p.finish(o); err != nil {
		fmt.Fprintf(stderr, "baton: %v\n", err)
		return exitFailed
	}
	if format != formatText && o.Err != "" {
		// The JSON formats carry the error on stdout; a person watching
		// the run still gets it as one line, as in text mode.
		fmt.Fprintf(stderr, "error: %s\n", oneLine(o.Err, maxLine))
	}
	return exitCode(o.Status, signalled)
}

// playTurn submits the prompt and feeds every event to p until the main
// agent's turn ends. When ctx ends first it interrupts the turn and keeps
// reading, so the turn's last events are printed too; signalled reports it.
func playTurn(ctx context.Context, s turnSession, prompt string, p printer) (o outcome, signalled bool, err error) {
	if err := s.Submit(prompt); err != nil {
		return o, false, fmt.Errorf("submit prompt: %w", err)
	}
	done := ctx.Done()
	events := s.Events()
	for {
		select {
		case <-done:
			signalled, done = true, nil
			s.Interrupt()
		case ev, ok := <-events:
			if !ok {
				return endedEarly(o, signalled), signalled, nil
			}
			p.event(ev)
			if ended, ok := record(&o, ev); ok {
				o.Status, o.Text, o.Usage = ended.Status, ended.Text, ended.Usage
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
