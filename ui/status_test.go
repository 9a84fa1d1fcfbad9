package ui

import (
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/event"
)

func TestQueuedStatusClearsWhenTheTurnEnds(t *testing.T) {
	d := newDriver(t, 80, 24)
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "go"})
	d.typeText("next one")
	d.keys("enter")
	if !strings.Contains(d.m.status.text, "queued") {
		t.Fatalf("status %q, want the queued note", d.m.status.text)
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
	if !strings.Contains(d.m.status.text, "stopping every") {
		t.Fatalf("status %q, want the stopping note", d.m.status.text)
	}
	d.finish(explore, event.StatusCancelled, "stopped")
	if !strings.Contains(d.m.status.text, "stopping every") {
		t.Errorf("status %q changed while a child still runs", d.m.status.text)
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
	d.keys("n")
	if !strings.Contains(d.m.status.text, "denied") {
		t.Fatalf("status %q, want the denial", d.m.status.text)
	}
	askTool(t, d, "p2", mainMeta)
	if strings.Contains(d.m.status.text, "denied") {
		t.Errorf("the old denial %q sits under a new card", d.m.status.text)
	}
}

func TestQuitPromptClearsOnTheNextKey(t *testing.T) {
	d := newDriver(t, 80, 24)
	d.keys("ctrl+c")
	if !strings.Contains(d.m.status.text, "ctrl+c again") {
		t.Fatalf("status %q, want the quit prompt", d.m.status.text)
	}
	d.typeText("h")
	if strings.Contains(d.m.status.text, "ctrl+c again") {
		t.Errorf("the quit prompt %q stayed after it was disarmed", d.m.status.text)
	}
}

func TestCtrlCClearsTypedTextBeforeArmingQuit(t *testing.T) {
	d := newDriver(t, 80, 24)
	d.typeText("half a thought")
	d.keys("ctrl+c")
	if d.m.input.value() != "" || d.m.quitArmed {
		t.Fatalf("first ctrl+c: box %q, armed %v", d.m.input.value(), d.m.quitArmed)
	}
	d.keys("ctrl+c")
	if !d.m.quitArmed {
		t.Error("ctrl+c on the empty box did not arm quitting")
	}
}
