package main

import (
	"context"
	"errors"
	"testing"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/event"
)

// fakeSession replays scripted events; Interrupt ends the turn the way the
// engine does, with an interrupted TurnEnded.
type fakeSession struct {
	events      chan event.Event
	submitErr   error
	interrupted chan struct{}
}

func newFakeSession(events ...event.Event) *fakeSession {
	ch := make(chan event.Event, len(events)+1)
	for _, ev := range events {
		ch <- ev
	}
	return &fakeSession{events: ch, interrupted: make(chan struct{})}
}

func (f *fakeSession) Events() <-chan event.Event { return f.events }
func (f *fakeSession) Submit(string) error        { return f.submitErr }
func (f *fakeSession) SetModel(string)            {}
func (f *fakeSession) Interrupt() {
	close(f.interrupted)
	f.events <- event.TurnEnded{Meta: mainMeta, Status: event.StatusInterrupted, Text: "partial"}
}

// recorder is a printer that keeps what it was given.
type recorder struct{ kinds []string }

func (r *recorder) event(ev event.Event) { r.kinds = append(r.kinds, ev.Kind()) }
func (r *recorder) finish(outcome) error { return nil }

func TestPlayTurnCompletes(t *testing.T) {
	s := newFakeSession(sampleTurn()...)
	rec := &recorder{}
	o, signalled, err := playTurn(context.Background(), s, headlessRun{prompt: "find auth"}, rec, nil)
	if err != nil || signalled {
		t.Fatalf("err %v, signalled %v", err, signalled)
	}
	if o.Status != event.StatusCompleted || o.Text != "Auth lives in internal/auth." || o.Usage.TotalTokens != 1500 {
		t.Errorf("outcome %+v", o)
	}
	if len(rec.kinds) != len(sampleTurn()) {
		t.Errorf("printer saw %d events, want %d", len(rec.kinds), len(sampleTurn()))
	}
}

func TestPlayTurnChildTurnEndedDoesNotEndTheRun(t *testing.T) {
	s := newFakeSession(
		event.TurnEnded{Meta: exploreMeta, Status: event.StatusCompleted, Text: "child"},
		event.ErrorOccurred{Meta: mainMeta, Message: "429 rate limited"},
		event.TurnEnded{Meta: mainMeta, Status: event.StatusFailed},
	)
	o, _, err := playTurn(context.Background(), s, headlessRun{prompt: "x"}, &recorder{}, nil)
	if err != nil || o.Status != event.StatusFailed || o.Err != "429 rate limited" {
		t.Errorf("outcome %+v, err %v", o, err)
	}
}

func TestPlayTurnInterruptedBySignal(t *testing.T) {
	s := newFakeSession(event.TurnStarted{Meta: mainMeta})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	o, signalled, err := playTurn(ctx, s, headlessRun{prompt: "x"}, &recorder{}, nil)
	if err != nil || !signalled {
		t.Fatalf("err %v, signalled %v", err, signalled)
	}
	<-s.interrupted
	if o.Status != event.StatusInterrupted || o.Text != "partial" || exitCode(o.Status, signalled) != exitInterrupted {
		t.Errorf("outcome %+v", o)
	}
}

func TestPlayTurnSessionClosedEarly(t *testing.T) {
	s := newFakeSession(event.TurnStarted{Meta: mainMeta})
	close(s.events)
	o, signalled, err := playTurn(context.Background(), s, headlessRun{prompt: "x"}, &recorder{}, nil)
	if err != nil || signalled || o.Status != event.StatusFailed || o.Err != endedEarlyMessage {
		t.Errorf("outcome %+v, signalled %v, err %v", o, signalled, err)
	}
}

func TestPlayTurnSubmitError(t *testing.T) {
	s := newFakeSession()
	s.submitErr = engine.ErrBusy
	if _, _, err := playTurn(context.Background(), s, headlessRun{prompt: "x"}, &recorder{}, nil); !errors.Is(err, engine.ErrBusy) {
		t.Errorf("err %v, want ErrBusy", err)
	}
}
