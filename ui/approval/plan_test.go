package approval

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// plan is the main agent's plan offered on its card, longer than the
// card is tall.
func plan(id string) *event.ApprovalRequest {
	var steps []string
	for i := range 30 {
		steps = append(steps, "- step "+string(rune('A'+i%26))+" of the migration")
	}
	return &event.ApprovalRequest{ID: id, Kind: event.ApprovePlan, Preview: "# Plan\n\n" + strings.Join(steps, "\n")}
}

// The plan card asks to carry the plan out: y accepts with edits asking,
// a with edits running unasked, n keeps planning with what to change,
// esc keeps planning and stops the turn; the plan scrolls, never cut.
func TestPlanCard(t *testing.T) {
	m, timers := queue(80, 16)
	req := plan("p1")
	armed(t, m, timers, parent, req)
	view := ansi.Strip(m.View())
	if !strings.Contains(view, "Carry out this plan?") || !strings.Contains(view, "yes, edits ask first") || !strings.Contains(view, "keep planning") {
		t.Fatalf("the plan card:\n%s", view)
	}
	m.Update(press("down"))
	m.Update(tea.KeyMsg{Type: tea.KeyUp})
	m.Update(press("down"))
	if scrolled := ansi.Strip(m.View()); scrolled == view {
		t.Error("down did not scroll the plan")
	}
	run(m.Update(press("y")))
	if got := req.Wait(t.Context()); got.Decision != event.Allow {
		t.Errorf("y answered %+v", got)
	}

	req = plan("p2")
	armed(t, m, timers, parent, req)
	run(m.Update(press("a")))
	if got := req.Wait(t.Context()); got.Decision != event.AllowAlways {
		t.Errorf("a answered %+v", got)
	}

	req = plan("p3")
	armed(t, m, timers, parent, req)
	m.Update(press("n"))
	if help := m.ShortHelp(); len(help) != 2 || help[0].Help().Desc != "keep planning" {
		t.Errorf("the reason line's help: %v", help)
	}
	for _, r := range "split step C" {
		m.Update(press(string(r)))
	}
	run(m.Update(press("enter")))
	if got := req.Wait(t.Context()); got.Decision != event.Deny || got.Reason != "split step C" {
		t.Errorf("n + change answered %+v", got)
	}

	stops := m.stopper.(*stopper)
	req = plan("p4")
	armed(t, m, timers, parent, req)
	run(m.Update(press("esc")))
	if got := req.Wait(t.Context()); got.Decision != event.Deny || stops.interrupts != 1 {
		t.Errorf("esc answered %+v, %d interrupts", got, stops.interrupts)
	}
}

// Where a child works is on its card: a worktree and the verify command
// run in it, or the shared tree and why a worktree was refused.
func TestIsolationOnTheCard(t *testing.T) {
	for _, c := range []struct {
		preview func(*event.DelegationPreview)
		want    string
	}{
		{func(d *event.DelegationPreview) {
			d.Isolation, d.From, d.Verify = event.IsolationWorktree, "main@1a2b3c4", []string{"go test ./..."}
		}, "runs $ go test ./... in its worktree"},
		{func(d *event.DelegationPreview) { d.Isolation, d.From = event.IsolationWorktree, "main@1a2b3c4" }, "worktree from main@1a2b3c4"},
		{func(d *event.DelegationPreview) { d.IsolationNote = "not a git repository" }, "shared: not a git repository"},
	} {
		m, timers := queue(100, 30)
		req := delegation("d1", "Explore", "map it")
		c.preview(req.Delegation)
		armed(t, m, timers, child, req)
		if view := ansi.Strip(m.View()); !strings.Contains(view, c.want) {
			t.Errorf("the card lacks %q:\n%s", c.want, view)
		}
	}
}

// The guard's clock can be replaced, and what stopping a child reports
// reaches the root alongside the denial.
func TestClockAndStopFailure(t *testing.T) {
	m, _ := queue(80, 16)
	var ticks int
	m.SetAfter(func(time.Duration, tea.Msg) tea.Cmd { ticks++; return nil })
	m.Push(parent, tool("t1"), 0)
	m.Arm()
	if ticks == 0 {
		t.Error("arming did not use the clock it was given")
	}
	failed := func() tea.Msg { return "stop failed" }
	denied := func() tea.Msg { return "denied" }
	if got := stopThenDeny(func() tea.Msg { return nil }, denied)(); got != "denied" {
		t.Errorf("a stop that worked: %v", got)
	}
	batch, ok := stopThenDeny(failed, denied)().(tea.BatchMsg)
	if !ok || len(batch) != 2 || batch[0]() != "stop failed" || batch[1]() != "denied" {
		t.Errorf("a stop that failed: %v", batch)
	}
}
