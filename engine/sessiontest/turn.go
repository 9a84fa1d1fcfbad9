package sessiontest

import (
	"flag"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/event"
)

// Runner is the -runner flag of a test binary that imports this package:
// the runner that places the test sessions' children, local or process.
// The suites run with -runner=process as well as with the default, so
// that every behaviour of a child holds whatever runner places it.
var Runner = flag.String("runner", child.RunnerLocal, "the runner that places the test sessions' children: local or process")

// Timeout guards against hangs only; no test asserts on durations.
const Timeout = 20 * time.Second

// Session is what a test drives: *engine.Session.
type Session interface {
	Submit(prompt string) error
	Events() <-chan event.Event
}

// Turn is the events of one turn, safe to read after RunTurn returns.
type Turn struct {
	mu     sync.Mutex
	events []event.Event
	// End is the main agent's TurnEnded that closed the turn.
	End event.TurnEnded
}

// Events returns the turn's events, in the order they came.
func (turn *Turn) Events() []event.Event {
	turn.mu.Lock()
	defer turn.mu.Unlock()
	return slices.Clone(turn.events)
}

// Of returns the events of turn of the concrete type T, in order.
func Of[T event.Event](turn *Turn) []T {
	var out []T
	for _, ev := range turn.Events() {
		if e, ok := ev.(T); ok {
			out = append(out, e)
		}
	}
	return out
}

// RunTurn submits prompt and reads events until the main agent's
// TurnEnded, answering approval requests with answer (nil: allow).
func RunTurn(t testing.TB, s Session, prompt string, answer func(*event.ApprovalRequest) event.Answer) *Turn {
	t.Helper()
	return WatchTurn(t, s, prompt, func(ev event.Event) {
		if e, ok := ev.(event.ApprovalRequested); ok {
			if answer == nil {
				e.Request.Answer(event.Answer{Decision: event.Allow})
			} else {
				e.Request.Answer(answer(e.Request))
			}
		}
	})
}

// WatchTurn submits prompt and hands every event to watch until the main
// agent's TurnEnded.
func WatchTurn(t testing.TB, s Session, prompt string, watch func(event.Event)) *Turn {
	t.Helper()
	if err := s.Submit(prompt); err != nil {
		t.Fatalf("Submit: %v", err)
	}
	return ReadTurn(t, s, watch)
}

// ReadTurn hands every event to watch until the main agent's TurnEnded,
// for a turn the test started some other way than by a prompt.
func ReadTurn(t testing.TB, s Session, watch func(event.Event)) *Turn {
	t.Helper()
	turn := &Turn{}
	ReadUntil(t, s, func(ev event.Event) bool {
		turn.mu.Lock()
		turn.events = append(turn.events, ev)
		turn.mu.Unlock()
		watch(ev)
		if e, ok := ev.(event.TurnEnded); ok && e.Agent == event.MainAgent {
			turn.End = e
			return true
		}
		return false
	})
	return turn
}

// ReadUntil reads events until stop says so and returns them; the test
// fails if the channel closes first or nothing stops it in Timeout.
func ReadUntil(t testing.TB, s Session, stop func(event.Event) bool) []event.Event {
	t.Helper()
	var seen []event.Event
	deadline := time.NewTimer(Timeout)
	defer deadline.Stop()
	for {
		select {
		case ev, ok := <-s.Events():
			if !ok {
				t.Fatal("event channel closed early")
			}
			seen = append(seen, ev)
			if stop(ev) {
				return seen
			}
		case <-deadline.C:
			t.Fatal("the awaited event never came")
		}
	}
}

// MainEnded stops ReadUntil at the main agent's TurnEnded.
func MainEnded(ev event.Event) bool {
	e, ok := ev.(event.TurnEnded)
	return ok && e.Agent == event.MainAgent
}
