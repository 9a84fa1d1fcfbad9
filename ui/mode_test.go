package ui

import (
	"reflect"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// headerLine is the screen's first line.
func headerLine(d *driver) string {
	return strings.SplitN(d.screen(), "\n", 2)[0]
}

// footerLine is the screen's last line.
func footerLine(d *driver) string {
	lines := strings.Split(d.screen(), "\n")
	return lines[len(lines)-1]
}

// shift+tab in the input cycles normal → auto-accept edits → plan →
// normal through the session; the header and footer say the mode, and
// the status line what it means.
func TestShiftTabCyclesTheAgentMode(t *testing.T) {
	d := newDriver(t, 120, 30)
	if h := headerLine(d); strings.Contains(h, "plan") || strings.Contains(h, "auto-accept") {
		t.Fatalf("a new session shows a mode: %q", h)
	}
	if f := footerLine(d); !strings.Contains(f, "shift+tab mode") {
		t.Errorf("the footer does not offer the mode key: %q", f)
	}
	d.keys("shift+tab")
	if h, f := headerLine(d), footerLine(d); !strings.Contains(h, "auto-accept edits") || !strings.Contains(f, "shift+tab auto-accept edits") {
		t.Errorf("after one shift+tab:\nheader %q\nfooter %q", h, f)
	}
	if !strings.Contains(d.screen(), "file edits run without asking") {
		t.Errorf("the status line does not say what auto-accept means:\n%s", d.screen())
	}
	d.keys("shift+tab")
	if h := headerLine(d); !strings.Contains(h, "plan mode") {
		t.Errorf("after two: header %q", h)
	}
	if !strings.Contains(d.screen(), "only read-only tools run until you accept the plan") {
		t.Errorf("the status line does not say what plan mode means:\n%s", d.screen())
	}
	d.keys("shift+tab")
	if h := headerLine(d); strings.Contains(h, "plan") || strings.Contains(h, "auto-accept") {
		t.Errorf("after three: header %q", h)
	}
	want := []event.AgentMode{event.AgentModeAutoAccept, event.AgentModePlan, event.AgentModeNormal}
	if !reflect.DeepEqual(d.s.modes, want) {
		t.Errorf("the session was switched to %v, want %v", d.s.modes, want)
	}
	d.checkFits()
}

// With a pane focused, shift+tab still moves back between panes; the
// mode changes only from the input.
func TestShiftTabOnAPaneMovesBack(t *testing.T) {
	d := threeRunning(t, 100, 40)
	d.keys("tab", "tab", "shift+tab")
	if d.focus() != "explore-1" || len(d.s.modes) != 0 {
		t.Errorf("shift+tab on a pane: focus %q, modes %v", d.focus(), d.s.modes)
	}
}

// The plan card shows the plan whole and its answers; a accepts it with
// edits running unasked, and the session's ModeChanged then shows the new
// mode; n keeps planning with what to change as the reason.
func TestPlanCardAcceptsOrKeepsPlanning(t *testing.T) {
	plan := "1. add the --verbose flag in main.go\n2. test it in main_test.go"
	askPlan := func(d *driver, id string) chan event.Answer {
		req := &event.ApprovalRequest{ID: id, Kind: event.ApprovePlan, CallID: "p1", Tool: "exit_plan_mode", Preview: plan}
		answers := newRequest(t, req)
		d.emit(event.ApprovalRequested{Meta: event.Meta{Agent: event.MainAgent, Time: t0}, Request: req})
		d.fire()
		return answers
	}
	d := newDriver(t, 100, 30)
	d.keys("shift+tab", "shift+tab")
	d.emit(event.ModeChanged{Meta: mainMeta, Mode: event.AgentModePlan}, event.TurnStarted{Meta: mainMeta, Prompt: "add a verbose flag"})
	answers := askPlan(d, "ap-1")
	screen := d.screen()
	for _, want := range []string{"Carry out this plan?", "1. add the --verbose flag in main.go", "2. test it in main_test.go",
		"y yes, edits ask first", "a yes, auto-accept edits", "n keep planning (say what to change)"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the plan card lacks %q:\n%s", want, screen)
		}
	}
	d.checkFits()
	d.keys("a")
	if got := <-answers; got.Decision != event.AllowAlways {
		t.Fatalf("a answered %+v", got)
	}
	d.emit(event.ModeChanged{Meta: mainMeta, Mode: event.AgentModeAutoAccept, PlanAccepted: true})
	if h := headerLine(d); !strings.Contains(h, "auto-accept edits") || strings.Contains(h, "plan") {
		t.Errorf("after accepting: header %q", h)
	}
	if !strings.Contains(d.screen(), "plan accepted") {
		t.Errorf("accepting the plan is not acknowledged:\n%s", d.screen())
	}

	answers = askPlan(d, "ap-2")
	d.keys("n")
	if !strings.Contains(d.screen(), "keep planning, telling the model what to change") {
		t.Errorf("n does not ask what to change:\n%s", d.screen())
	}
	d.typeText("name it todo.txt")
	d.keys("enter")
	if got := <-answers; got.Decision != event.Deny || got.Reason != "name it todo.txt" {
		t.Errorf("n + reason answered %+v", got)
	}
	if !strings.Contains(d.screen(), "keeping to plan mode") {
		t.Errorf("keeping to plan mode is not acknowledged:\n%s", d.screen())
	}
}
