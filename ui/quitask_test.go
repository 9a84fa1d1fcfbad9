package ui

import (
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// TestQuitAsksWhileChildrenRun quits with ctrl+c twice and with /quit
// while sub-agents run: baton asks first, a stray key answers nothing,
// esc stays, q quits; once no child runs, /quit quits at once.
func TestQuitAsksWhileChildrenRun(t *testing.T) {
	d := newDriver(t, 80, 24)
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "what is here"}, event.MessageDone{Meta: mainMeta, Text: "I'll split this."})
	d.spawn(explore)
	d.spawn(review)
	const question = "2 sub-agents still running — q quit and stop them, esc stay"

	d.keys("ctrl+c", "ctrl+c")
	if d.quit || !strings.Contains(d.screen(), question) {
		t.Fatalf("ctrl+c twice with children running: quit=%v, screen:\n%s", d.quit, d.screen())
	}
	d.keys("x", "d", "enter")
	if d.quit || !strings.Contains(d.screen(), question) {
		t.Fatalf("a stray key answered the question: quit=%v, screen:\n%s", d.quit, d.screen())
	}
	d.keys("esc")
	if d.quit || strings.Contains(d.screen(), question) {
		t.Fatalf("esc did not stay: quit=%v, screen:\n%s", d.quit, d.screen())
	}

	d.finish(explore, event.StatusCompleted, "")
	d.typeText("/quit")
	d.keys("enter")
	if one := "1 sub-agent still running — q quit and stop it, esc stay"; d.quit || !strings.Contains(d.screen(), one) {
		t.Fatalf("/quit with one child running: quit=%v, screen:\n%s", d.quit, d.screen())
	}
	d.keys("q")
	if !d.quit {
		t.Fatal("q did not quit")
	}
}

// TestQuitAskCtrlCMeansIt: a ctrl+c while the question is open quits, as
// it always does when pressed again.
func TestQuitAskCtrlCMeansIt(t *testing.T) {
	d := newDriver(t, 60, 24)
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "what is here"})
	d.spawn(explore)
	d.typeText("/quit")
	d.keys("enter")
	if d.quit {
		t.Fatal("/quit quit without asking")
	}
	d.keys("ctrl+c")
	if !d.quit {
		t.Fatal("ctrl+c on the question did not quit")
	}
}

// TestQuitWithoutChildren: nothing runs, so /quit quits at once.
func TestQuitWithoutChildren(t *testing.T) {
	d := newDriver(t, 80, 24)
	d.typeText("/quit")
	d.keys("enter")
	if !d.quit {
		t.Fatal("/quit did not quit with no child running")
	}
}

// TestQuitAskOffersDetach: with a child that can outlive baton among
// those running, the question offers d, which lets those go on (the
// session's Detach) and quits; one that cannot is stopped as q would.
func TestQuitAskOffersDetach(t *testing.T) {
	d := newDriver(t, 100, 24)
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "what is here"})
	d.spawn(explore)
	started := review.started()
	started.Detachable, started.Runner = true, "process"
	d.emit(append([]event.Event{review.taskCall(), started}, review.working()...)...)
	d.typeText("/quit")
	d.keys("enter")
	const question = "2 sub-agents still running — q quit and stop them, d detach the 1 that can outlive baton, esc stay"
	if !strings.Contains(d.screen(), question) || !strings.Contains(d.screen(), "d detach it") {
		t.Fatalf("the question does not offer d:\n%s", d.screen())
	}
	d.keys("d")
	if !d.quit || d.s.detached != 1 {
		t.Fatalf("d: quit=%v, Detach called %d times", d.quit, d.s.detached)
	}
}

// TestQuitAskWithoutDetachableIgnoresD: when no running child can outlive
// baton, d is a stray key like any other.
func TestQuitAskWithoutDetachableIgnoresD(t *testing.T) {
	d := newDriver(t, 80, 24)
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "what is here"})
	d.spawn(explore)
	d.typeText("/quit")
	d.keys("enter", "d")
	if d.quit || d.s.detached != 0 || strings.Contains(d.screen(), "detach") {
		t.Fatalf("d without a detachable child: quit=%v, detached %d, screen:\n%s", d.quit, d.s.detached, d.screen())
	}
}
