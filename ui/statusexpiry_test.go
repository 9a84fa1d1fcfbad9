package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/ui/status"

	"github.com/charmbracelet/bubbles/spinner"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// "allowed once: …" and "interrupted" expire with the clock, and a new
// turn clears what the last one left.
func TestTransientStatusesExpire(t *testing.T) {
	d := newDriver(t, 120, 40)
	d.m.clock.now = func() time.Time { return t0 }
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "test it"})
	askTool(t, d, "p1", mainMeta)
	d.keys("y")
	if !strings.Contains(d.screen(), "allowed once: ") {
		t.Fatalf("no acknowledgement:\n%s", d.screen())
	}
	if !d.m.clock.ticking {
		t.Fatal("the clock does not run for the status to expire")
	}
	d.m.clock.now = func() time.Time { return t0.Add(status.InfoTTL - time.Second) }
	d.send(spinner.TickMsg{}) // the clock moves the screen on its ticks
	if !strings.Contains(d.screen(), "allowed once") {
		t.Fatalf("the acknowledgement went early:\n%s", d.screen())
	}
	d.m.clock.now = func() time.Time { return t0.Add(status.InfoTTL) }
	d.send(spinner.TickMsg{})
	if strings.Contains(d.screen(), "allowed once") || d.m.status.Text() != "" {
		t.Fatalf("the acknowledgement outlived its time (%q):\n%s", d.m.status.Text(), d.screen())
	}
	d.emit(event.TurnEnded{Meta: mainMeta, Status: event.StatusInterrupted})
	if !strings.Contains(d.m.status.View(), "interrupted") {
		t.Fatalf("no interrupted status:\n%s", d.screen())
	}
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "again"})
	if line := d.m.status.View(); strings.Contains(line, "interrupted") {
		t.Errorf("the last turn's status shows during the next: %q", line)
	}
}

// A retry whose request answers with tool calls only (no text) still
// clears the countdown.
func TestRetryClearsWhenTheRequestAnswers(t *testing.T) {
	d := newDriver(t, 100, 24)
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "go"})
	d.emit(event.Retrying{Meta: mainMeta, Attempt: 1, Attempts: 2, At: t0.Add(5 * time.Second), Reason: "server error"})
	if !strings.Contains(d.screen(), "retrying in 2s (1/2)") {
		t.Fatalf("no countdown:\n%s", d.screen())
	}
	d.emit(event.MessageDone{Meta: mainMeta})
	if strings.Contains(d.screen(), "retrying") {
		t.Errorf("the countdown stayed after the retried request answered:\n%s", d.screen())
	}
}

// A status answers the command that set it: the next command replaces or
// removes it, so an old error never reads as the answer to an unrelated
// command. A notice of work still going on (a queued prompt) stays.
func TestStatusEndsWhenAnotherCommandRuns(t *testing.T) {
	d := newDriver(t, 100, 30)
	d.command("/theme nosuch")
	if d.m.status.Level() != status.Error || !strings.Contains(d.screen(), "nosuch") {
		t.Fatalf("no error for a bad theme:\n%s", d.screen())
	}
	d.command("/agents")
	if said := d.m.status.Text(); said != "" {
		t.Errorf("the bad theme's error still shows under /agents: %q", said)
	}
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "go"})
	d.typeText("later please")
	d.keys("enter")
	d.command("/agents")
	if said := d.m.status.Text(); !strings.Contains(said, "queued") {
		t.Errorf("a command dropped the queued prompt's notice: %q", said)
	}
}
