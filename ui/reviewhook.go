package ui

import (
	"fmt"

	"github.com/seed-e4e525a6/baton/ui/status"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/pane"
	changes "github.com/seed-e4e525a6/baton/ui/review"
)

// The review of a worktree child's change is its own component
// (ui/review); the root only opens it (enter on the child's fold line,
// or /subagents diff N), routes its messages and keys, and closes it.

// openReview loads the review of p's change.
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
	return changes.Open(r, p.ID())
}

// reviewLoaded opens the review, or hands an action's outcome to the one
// open.
func (m *Model) reviewLoaded(msg changes.LoadedMsg) tea.Cmd {
	if m.review != nil && m.review.Agent() == msg.Agent {
		return m.review.Update(msg)
	}
	r, ok := m.session.(changes.Reviewer)
	if !ok || m.review != nil {
		return nil
	}
	if msg.Err != nil {
		m.status.Set(status.Error, "review: "+msg.Err.Error())
		return nil
	}
	m.review = changes.New(r, msg, m.styles)
	m.review.SetSize(m.width, m.height)
	m.overlay = overlayReview
	m.input.Blur()
	return nil
}

// reviewClosed goes back to the conversation.
func (m *Model) reviewClosed(msg changes.ClosedMsg) {
	m.review = nil
	if m.overlay == overlayReview {
		m.overlay = overlayNone
	}
	if m.behind == overlayReview {
		m.behind = overlayNone
	}
	if !msg.Done {
		if p, ok := m.agents.byID[msg.Agent]; ok && p.PendingReview() {
			m.status.Set(status.Info, paneName(p)+"'s change still waits for review: enter on its line, or /subagents diff "+fmt.Sprint(p.Number()))
		}
	}
	m.setFocus(m.focus)
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
