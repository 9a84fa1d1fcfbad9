package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
)

func TestQueuedStatusClearsWhenTheTurnEnds(t *testing.T) {
	d := newDriver(t, 80, 24)
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "go"})
	d.typeText("next one")
	d.keys("enter")
	if !strings.Contains(d.m.status.Text(), "queued") {
		t.Fatalf("status %q, want the queued note", d.m.status.Text())
	}
	d.emit(event.TurnEnded{Meta: mainMeta, Status: event.StatusCompleted})
	if strings.Contains(d.screen(), "queued;") {
		t.Errorf("the queued note stayed after the message was sent:\n%s", d.screen())
	}
}

func TestStopAllStatusClearsWhenEveryChildEnded(t *testing.T) {
	d := newDriver(t, 80, 30)
	d.spawn(explore)
	d.spawn(review)
	d.typeText("/subagents stop all")
	d.keys("enter")
	if !strings.Contains(d.m.status.Text(), "stopping every") {
		t.Fatalf("status %q, want the stopping note", d.m.status.Text())
	}
	d.finish(explore, event.StatusCancelled, "stopped")
	if !strings.Contains(d.m.status.Text(), "stopping every") {
		t.Errorf("status %q changed while a child still runs", d.m.status.Text())
	}
	d.finish(review, event.StatusCancelled, "stopped")
	if strings.Contains(d.screen(), "stopping every") {
		t.Errorf("the stopping note stayed after every child ended:\n%s", d.screen())
	}
}

func TestAnswerNoteClearsWhenTheNextCardArrives(t *testing.T) {
	d := newDriver(t, 80, 24)
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "go"})
	req := &event.ApprovalRequest{ID: "p1", Kind: event.ApproveTool, Tool: "write_file", Preview: "+x"}
	newRequest(t, req)
	d.emit(event.ApprovalRequested{Meta: mainMeta, Request: req})
	d.keys("n", "enter")
	if !strings.Contains(d.m.status.Text(), "denied") {
		t.Fatalf("status %q, want the denial", d.m.status.Text())
	}
	askTool(t, d, "p2", mainMeta)
	if strings.Contains(d.m.status.Text(), "denied") {
		t.Errorf("the old denial %q sits under a new card", d.m.status.Text())
	}
}

func TestQuitPromptClearsOnTheNextKey(t *testing.T) {
	d := newDriver(t, 80, 24)
	d.keys("ctrl+c")
	if !strings.Contains(d.m.status.Text(), "ctrl+c again") {
		t.Fatalf("status %q, want the quit prompt", d.m.status.Text())
	}
	d.typeText("h")
	if strings.Contains(d.m.status.Text(), "ctrl+c again") {
		t.Errorf("the quit prompt %q stayed after it was disarmed", d.m.status.Text())
	}
}

func TestCtrlCClearsTypedTextBeforeArmingQuit(t *testing.T) {
	d := newDriver(t, 80, 24)
	d.typeText("half a thought")
	d.keys("ctrl+c")
	if d.m.input.Value() != "" || d.m.quitArmed {
		t.Fatalf("first ctrl+c: box %q, armed %v", d.m.input.Value(), d.m.quitArmed)
	}
	d.keys("ctrl+c")
	if !d.m.quitArmed {
		t.Error("ctrl+c on the empty box did not arm quitting")
	}
}

// A retry counts down in the status line with the clock, and the
// countdown goes once the retried request answers.
func TestRetryCountsDownInTheStatusLine(t *testing.T) {
	d := newDriver(t, 100, 24)
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "go"})
	now := t0.Add(3 * time.Second)
	d.emit(event.Retrying{Meta: mainMeta, Attempt: 1, Attempts: 3, At: now.Add(30 * time.Second), Reason: "rate limited, Retry-After"})
	if !strings.Contains(d.screen(), "retrying in 30s (1/3) · rate limited, Retry-After") {
		t.Fatalf("no countdown:\n%s", d.screen())
	}
	d.m.clock.now = func() time.Time { return now.Add(20 * time.Second) }
	d.send(spinner.TickMsg{}) // the clock moves the screen on its ticks
	if !strings.Contains(d.screen(), "retrying in 10s (1/3) · rate limited, Retry-After") {
		t.Fatalf("the countdown did not follow the clock:\n%s", d.screen())
	}
	d.m.clock.now = func() time.Time { return now.Add(31 * time.Second) }
	d.send(spinner.TickMsg{})
	if !strings.Contains(d.screen(), "retrying now (1/3)") {
		t.Fatalf("no retrying now:\n%s", d.screen())
	}
	d.emit(event.TextDelta{Meta: mainMeta, Text: "hello"})
	if strings.Contains(d.screen(), "retrying") {
		t.Errorf("the countdown stayed after the reply began:\n%s", d.screen())
	}
}

// The working line shows the turn's time, its tokens and how long the
// first one took, following the one clock; at 60 columns the least
// important part gives way and "esc to interrupt" stays.
func TestWorkingLineShowsTimeAndTokens(t *testing.T) {
	d := newDriver(t, 120, 40)
	d.m.clock.now = func() time.Time { return t0 }
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "go"})
	d.m.clock.now = func() time.Time { return t0.Add(4 * time.Second) }
	d.send(spinner.TickMsg{}) // the clock moves the screen on its ticks
	if !strings.Contains(d.screen(), "working · 4s · no tokens yet · esc to interrupt") {
		t.Fatalf("before the first token:\n%s", d.screen())
	}
	d.m.clock.now = func() time.Time { return t0.Add(5 * time.Second) }
	d.emit(event.TextDelta{Meta: mainMeta, Text: strings.Repeat("word ", 40)})
	d.emit(event.UsageReported{Meta: mainMeta, Request: event.Usage{CompletionTokens: 1150}})
	d.emit(event.TextDelta{Meta: mainMeta, Text: strings.Repeat("more ", 40)})
	d.m.clock.now = func() time.Time { return t0.Add(12 * time.Second) }
	d.send(spinner.TickMsg{})
	if !strings.Contains(d.screen(), "working · 12s · ↓ 1.2k tok · first token 5s · esc to interrupt") {
		t.Fatalf("streaming:\n%s", d.screen())
	}
	d.send(tea.WindowSizeMsg{Width: 60, Height: 20})
	if !strings.Contains(d.screen(), "working · 12s · ↓ 1.2k tok · esc to interrupt") {
		t.Fatalf("at 60 columns:\n%s", d.screen())
	}
	d.checkFits()
	d.emit(event.TurnEnded{Meta: mainMeta, Status: event.StatusCompleted})
	if strings.Contains(d.screen(), "working") {
		t.Errorf("the working line stayed after the turn:\n%s", d.screen())
	}
}
