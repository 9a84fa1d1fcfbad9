package main

import (
	"context"
	"errors"
	"testing"

	"github.com/seed-e4e525a6/baton/engine"
)

// fakeSession replays scripted events; Interrupt ends the turn the way the
// engine does, with an interrupted TurnEnded.
type fakeSession struct {
	events      chan engine.Event
	submitErr   error
	interrupted chan struct{}
}

func newFakeSession(events ...engine.Event) *fakeSession {
	ch := make(chan engine.Event, len(events)+1)
	for _, ev := range events {
		ch <- ev
	}
	return &fakeSession{events: ch, interrupted: make(chan struct{})}
}

func (f *fakeSession) Events() <-chan engine.Event { return f.events }
func (f *fakeSession) Submit(string) error         { return f.submitErr }
func (f *fakeSession) Interrupt() {
	close(f.interrupted)
	f.events <- engine.TurnEnded{Meta: mainMeta, Status: engine.StatusInterrupted, Text: "partial"}
}

// recorder is a printer that keeps what it was given.
type recorder struct{ kinds []string }

func (r *recorder) event(ev engine.Event) { r.kinds = append(r.kinds, ev.Kind()) }
func (r *recorder) finish(outcome) error  { return nil }

func TestPlayTurnCompletes(t *testing.T) {
	s := newFakeSession(sampleTurn()...)
	rec := &recorder{}
	o, signalled, err := playTurn(context.Background(), s, headlessRun{prompt: "find auth"}, rec)
	if err != nil || signalled {
		t.Fatalf("err %v, signalled %v", err, signalled)
	}
	if o.Status != engine.StatusCompleted || o.Text != "Auth lives in internal/auth." || o.Usage.TotalTokens != 1500 {
		t.Errorf("outcome %+v", o)
	}
	if len(rec.kinds) != len(sampleTurn()) {
		t.Errorf("printer saw %d events, want %d", len(rec.kinds), len(sampleTurn()))
	}
}

func TestPlayTurnChildTurnEndedDoesNotEndTheRun(t *testing.T) {
	s := newFakeSession(
		engine.TurnEnded{Meta: exploreMeta, Status: engine.StatusCompleted, Text: "child"},
		engine.ErrorOccurred{Meta: mainMeta, Message: "429 rate limited"},
		engine.TurnEnded{Meta: mainMeta, Status: engine.StatusFailed},
	)
	o, _, err := playTurn(context.Background(), s, headlessRun{prompt: "x"}, &recorder{})
	if err != nil || o.Status != engine.StatusFailed || o.Err != "429 rate limited" {
		t.Errorf("outcome %+v, err %v", o, err)
	}
}

func TestPlayTurnInterruptedBySignal(t *testing.T) {
	s := newFakeSession(engine.TurnStarted{Meta: mainMeta})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	o, signalled, err := playTurn(ctx, s, headlessRun{prompt: "x"}, &recorder{})
	if err != nil || !signalled {
		t.Fatalf("err %v, signalled %v", err, signalled)
	}
	<-s.interrupted
	if o.Status != engine.StatusInterrupted || o.Text != "partial" || exitCode(o.Status, signalled) != exitInterrupted {
		t.Errorf("outcome %+v", o)
	}
}

func TestPlayTurnSessionClosedEarly(t *testing.T) {
	s := newFakeSession(engine.TurnStarted{Meta: mainMeta})
	close(s.events)
	o, signalled, err := playTurn(context.Background(), s, headlessRun{prompt: "x"}, &recorder{})
	if err != nil || signalled || o.Status != engine.StatusFailed || o.Err != endedEarlyMessage {
		t.Errorf("outcome %+v, signalled %v, err %v", o, signalled, err)
	}
}

func TestPlayTurnSubmitError(t *testing.T) {
	s := newFakeSession()
	s.submitErr = engine.ErrBusy
	if _, _, err := playTurn(context.Background(), s, headlessRun{prompt: "x"}, &recorder{}); !errors.Is(err, engine.ErrBusy) {
		t.Errorf("err %v, want ErrBusy", err)
	}
}
