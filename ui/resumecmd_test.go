package ui

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/transcript"
)

// /resume lists the folder's sessions in a picker (the running one
// marked), and choosing one switches the UI to the session cmd opens: its
// conversation replayed, the one left gone, the prompt history kept; the
// old session's channel closing does not end the UI.
func TestResumeSwitchesTheSession(t *testing.T) {
	old := newFakeSession()
	old.id = "20261129-0900-aaaa"
	next := newFakeSession()
	next.id = "20261128-1700-bbbb"
	next.history = []event.Event{
		event.TurnStarted{Meta: mainMeta, Prompt: "how do the tests run?"},
		event.MessageDone{Meta: mainMeta, Text: "With make test, under -race."},
		event.TurnEnded{Meta: mainMeta, Status: event.StatusCompleted},
	}
	now := time.Now() // the picker dates the rows by the wall clock
	var resumed []string
	closed := false
	opts := Options{Workspace: "/work/app", Theme: "dark",
		Sessions: func() ([]transcript.Summary, error) {
			return []transcript.Summary{
				{ID: old.id, Title: "rename Run to Loop", Turns: 1, LastActive: now},
				{ID: next.id, Title: "how do the tests run?", Turns: 1, Tokens: 1200, LastActive: now.Add(-3 * time.Hour)},
			}, nil
		},
		Resume: func(id string) (Session, func(), error) {
			resumed = append(resumed, id)
			return next, func() { closed = true; close(old.events) }, nil
		},
	}
	d := newDriverFor(t, old, opts, 100, 30)
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "rename Run to Loop"}, event.MessageDone{Meta: mainMeta, Text: "Renamed."},
		event.TurnEnded{Meta: mainMeta, Status: event.StatusCompleted})
	d.typeText("/resume")
	d.keys("enter")
	screen := d.screen()
	for _, want := range []string{"Resume a session", "● just now", "rename Run to Loop", "› ", "3h ago", "how do the tests run?", "1.2k tok"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the picker lacks %q:\n%s", want, screen)
		}
	}
	d.keys("enter")
	if !reflect.DeepEqual(resumed, []string{next.id}) {
		t.Fatalf("resumed %q", resumed)
	}
	screen = d.screen()
	if !strings.Contains(screen, "With make test, under -race.") || strings.Contains(screen, "Renamed.") {
		t.Errorf("after the switch:\n%s", screen)
	}
	if !strings.Contains(screen, "resumed session "+next.id) {
		t.Errorf("the switch is not said:\n%s", screen)
	}
	if !closed || len(d.waits) != 2 {
		t.Fatalf("after the switch: old closed %v, %d waits", closed, len(d.waits))
	}
	oldWait := d.waits[0] // still on the old session's channel, which has ended
	d.waits = d.waits[1:]
	d.send(oldWait())
	if d.quit {
		t.Fatal("the old session's end quit the UI")
	}
	d.s = next // the driver feeds the session the UI reads now
	d.emit(event.Notice{Meta: mainMeta, Text: "from the new session"})
	if !strings.Contains(d.screen(), "from the new session") {
		t.Errorf("the new session's events are not shown:\n%s", d.screen())
	}
	d.keys("up")
	if v := d.m.input.Value(); v != "how do the tests run?" {
		t.Errorf("↑ recalls %q, want the resumed session's prompt", v)
	}
	d.keys("up")
	if v := d.m.input.Value(); v != "/resume" {
		t.Errorf("↑↑ recalls %q, want this run's last prompt", v)
	}
	d.m.input.Set("")
	d.typeText("go on")
	d.keys("enter")
	if len(next.submitted) != 1 || len(old.submitted) != 0 {
		t.Errorf("prompts went to the new session %q and the old %q", next.submitted, old.submitted)
	}
	d.checkFits()
}

// Nothing is switched while something runs in the session, and a named
// session is resumed at once.
func TestResumeRefusedWhileBusy(t *testing.T) {
	var resumed []string
	opts := Options{Workspace: "/work/app", Theme: "dark",
		Sessions: func() ([]transcript.Summary, error) { return nil, nil },
		Resume: func(id string) (Session, func(), error) {
			resumed = append(resumed, id)
			return newFakeSession(), nil, nil
		},
	}
	d := newDriverFor(t, newFakeSession(), opts, 100, 30)
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "long job"})
	d.typeText("/resume 20261128-1700-bbbb")
	d.keys("enter")
	if len(resumed) != 0 || !strings.Contains(d.screen(), "a turn is running") {
		t.Errorf("resumed %q during a turn:\n%s", resumed, d.screen())
	}
	d.emit(event.TurnEnded{Meta: mainMeta, Status: event.StatusCompleted})
	d.typeText("/sessions")
	d.keys("enter")
	if !strings.Contains(d.screen(), "no other session") {
		t.Errorf("an empty list:\n%s", d.screen())
	}
	d.typeText("/resume 20261128-1700-bbbb")
	d.keys("enter")
	if !reflect.DeepEqual(resumed, []string{"20261128-1700-bbbb"}) {
		t.Errorf("resumed %q", resumed)
	}
}
