package ui

import (
	"fmt"

	"github.com/seed-e4e525a6/baton/ui/status"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/pane"
	changes "github.com/seed-e4e525a6/baton/ui/review"
)

// The review of a worktree child's change is its own layer (ui/review);
// the root only opens it: enter on the child's fold line, or /subagents
// diff N.

// openReview loads the review of p's change and opens it over
// everything; closed without a decision, it says how to come back.
func (m *Model) openReview(p *pane.Pane) tea.Cmd {
	r, ok := m.session.(changes.Reviewer)
	switch {
	case !ok:
		m.status.Set(status.Error, "this session cannot review changes")
		return nil
	case !p.PendingReview():
		m.status.Set(status.Error, fmt.Sprintf("%s has no change waiting for review", paneName(p)))
		return nil
	}
	said := m.status
	closed := func(done bool) tea.Cmd {
		if !done && p.PendingReview() {
			said.Set(status.Info, paneName(p)+"'s change still waits for review: enter on its line, or /subagents diff "+fmt.Sprint(p.Number()))
		}
		return nil
	}
	failed := func(err error) tea.Msg { return status.Said{Level: status.Error, Text: "review: " + err.Error()} }
	return changes.Open(r, p.ID(), m.styles, closed, failed)
}

// reviewFinished redraws the child's fold line and says what the review
// did; the parent model is told the same by the engine.
func (m *Model) reviewFinished(p *pane.Pane, ev event.ReviewFinished) {
	m.conv.refresh(p)
	m.status.Set(status.Info, paneName(p)+": "+ev.Summary)
	if m.focus == p.ID() {
		m.focusInput()
	}
}

// refresh redraws the line that shows p's summary.
func (c *conversation) refresh(p *pane.Pane) {
	if it, ok := c.children[p.ID()]; ok {
		it.version++
		return
	}
	for _, it := range c.items {
		if f, ok := it.block.(*foldLine); ok && f.child == p {
			it.version++
		}
	}
}

// reviewable are the folded children whose change waits for review; the
// focus visits them after the live panes.
func (a *agents) reviewable() []*pane.Pane {
	var out []*pane.Pane
	for _, p := range a.all {
		if p.State().Finished() && p.PendingReview() {
			out = append(out, p)
		}
	}
	return out
}
