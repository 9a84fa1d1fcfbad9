package ui

import (
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/event"
)

func TestStalledSessionStillResponds(t *testing.T) {
	d := newDriver(t, 80, 24) // the session never sends anything
	d.typeText("hello")
	d.keys("enter")
	if got := d.s.prompts(); len(got) != 1 || got[0] != "hello" {
		t.Fatalf("submitted %q, want [hello]", got)
	}
	d.typeText("next")
	d.keys("enter", "pgup", "home", "end", "ctrl+o", "esc")
	if d.s.interrupts != 1 {
		t.Errorf("esc interrupted %d times, want 1", d.s.interrupts)
	}
	if !strings.Contains(d.screen(), "queued › next") {
		t.Errorf("queued message not shown:\n%s", d.screen())
	}
	d.keys("ctrl+c", "ctrl+c")
	if !d.quit {
		t.Error("ctrl+c twice did not quit a stalled session")
	}
}

func TestQueuedMessageSentWhenTurnEnds(t *testing.T) {
	d := newDriver(t, 80, 24)
	d.typeText("first")
	d.keys("enter")
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "first"})
	d.typeText("second")
	d.keys("enter")
	d.typeText("third")
	d.keys("enter")
	if got := d.s.prompts(); len(got) != 1 {
		t.Fatalf("submitted %q while busy, want only the first", got)
	}
	d.emit(event.TurnEnded{Meta: mainMeta, Status: event.StatusCompleted})
	if got := d.s.prompts(); len(got) != 2 || got[1] != "second" {
		t.Fatalf("after the first turn submitted %q, want second next", got)
	}
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "second"}, event.TurnEnded{Meta: mainMeta, Status: event.StatusCompleted})
	if got := d.s.prompts(); len(got) != 3 || got[2] != "third" {
		t.Fatalf("after the second turn submitted %q, want third next", got)
	}
}

func TestEscInterruptsAndMarksPartialText(t *testing.T) {
	d := newDriver(t, 80, 24)
	d.typeText("go")
	d.keys("enter")
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "go"}, event.TextDelta{Meta: mainMeta, Text: "Half an ans"})
	d.keys("esc")
	if d.s.interrupts != 1 {
		t.Fatalf("esc interrupted %d times, want 1", d.s.interrupts)
	}
	d.emit(event.TurnEnded{Meta: mainMeta, Status: event.StatusInterrupted})
	screen := d.screen()
	if !strings.Contains(screen, "Half an ans") || !strings.Contains(screen, "⎿ interrupted") {
		t.Errorf("partial text or interrupted mark missing:\n%s", screen)
	}
	d.keys("esc") // idle now: nothing to interrupt
	if d.s.interrupts != 1 {
		t.Errorf("esc on an idle prompt interrupted again")
	}
}

func TestCtrlCAsksThenQuits(t *testing.T) {
	d := newDriver(t, 80, 24)
	d.keys("ctrl+c")
	if d.quit || !strings.Contains(d.screen(), "press ctrl+c again to quit") {
		t.Fatalf("first ctrl+c: quit=%v, screen:\n%s", d.quit, d.screen())
	}
	d.keys("x", "ctrl+c")
	if d.quit || d.m.input.Value() != "" {
		t.Fatalf("ctrl+c after typing: quit=%v, box %q; want the box cleared", d.quit, d.m.input.Value())
	}
	d.keys("ctrl+c")
	if d.quit {
		t.Fatal("a key between two ctrl+c still quit")
	}
	d.keys("ctrl+c")
	if !d.quit {
		t.Fatal("second ctrl+c did not quit")
	}
}

func TestHistoryWalk(t *testing.T) {
	d := newDriver(t, 80, 24)
	for _, p := range []string{"one", "two"} {
		d.typeText(p)
		d.keys("enter")
		d.emit(event.TurnStarted{Meta: mainMeta, Prompt: p}, event.TurnEnded{Meta: mainMeta, Status: event.StatusCompleted})
	}
	for _, step := range []struct{ key, want string }{{"up", "two"}, {"up", "one"}, {"up", "one"}, {"down", "two"}, {"down", ""}} {
		d.keys(step.key)
		if got := d.m.input.Value(); got != step.want {
			t.Fatalf("after %s the box holds %q, want %q", step.key, got, step.want)
		}
	}
	d.typeText("draft")
	d.keys("up")
	if got := d.m.input.Value(); got != "draft" {
		t.Errorf("up on a typed draft replaced it with %q", got)
	}
}

func TestNewlineKeepsComposing(t *testing.T) {
	d := newDriver(t, 80, 24)
	d.typeText("line one")
	d.keys("ctrl+j")
	d.typeText("line two")
	d.keys("enter")
	if got := d.s.prompts(); len(got) != 1 || got[0] != "line one\nline two" {
		t.Fatalf("submitted %q, want a two-line prompt", got)
	}
}

func TestHelpToggleOnlyWhenBoxEmpty(t *testing.T) {
	d := newDriver(t, 120, 30)
	d.keys("?")
	if !d.m.help.ShowAll || d.m.input.Value() != "" {
		t.Fatalf("? on an empty box: full help %v, box %q", d.m.help.ShowAll, d.m.input.Value())
	}
	d.checkFits()
	d.keys("?")
	d.typeText("why?")
	if d.m.help.ShowAll || d.m.input.Value() != "why?" {
		t.Errorf("? while typing: full help %v, box %q", d.m.help.ShowAll, d.m.input.Value())
	}
}

func TestSessionEndQuits(t *testing.T) {
	d := newDriver(t, 80, 24)
	close(d.s.events)
	wait := d.waits[0]
	d.waits = nil
	d.send(wait())
	if !d.quit {
		t.Error("the UI did not quit when the session's events closed")
	}
}
