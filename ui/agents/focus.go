package agents

import (
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/pane"
	"github.com/seed-e4e525a6/baton/ui/status"
)

// Focused is the pane that holds the keys: a live one, or a folded one
// whose change waits for review; nil when the input holds them.
func (a *Area) Focused() *pane.Pane {
	p, ok := a.byID[a.focus]
	if !ok || !p.Live() && !p.PendingReview() {
		return nil
	}
	return p
}

// Focus gives the focus to a child's pane, or to the input for "" or a
// child that ended (unless its change waits for review).
func (a *Area) Focus(id event.AgentID) {
	if p, ok := a.byID[id]; !ok || !p.Live() && !p.PendingReview() {
		id = ""
	}
	if old, ok := a.byID[a.focus]; ok {
		old.Blur()
	}
	if id != a.focus {
		a.refocused()
	}
	a.focus = id
	if p, ok := a.byID[id]; ok {
		p.Focus()
	}
}

// FocusInput gives the keys back to the input.
func (a *Area) FocusInput() { a.Focus("") }

// Cycle moves the focus by delta along input, first pane … last pane
// (the live ones, then those waiting for review), and round again.
func (a *Area) Cycle(delta int) {
	panes := append(a.Live(), a.Reviewable()...)
	if len(panes) == 0 {
		a.cfg.Status.Set(status.Info, "no sub-agent is running; tab moves between running ones")
		return
	}
	n := len(panes) + 1
	next := ((focusIndex(panes, a.focus)+1+delta)%n + n) % n
	if next == 0 {
		a.FocusInput()
		return
	}
	a.Focus(panes[next-1].ID())
}

// Ended settles what waited for a child that just ended: the status
// notice that named it, and the focus of its pane, which left the live
// area and goes back to the input (never to another pane: a second x
// would stop that one).
func (a *Area) Ended(p *pane.Pane) {
	a.cfg.Status.ChildEnded(p.ID(), a.Running(), Name(p)+" "+p.State().String())
	if a.focus == p.ID() {
		a.FocusInput()
	}
}

// Reviewed says what a review of p's change did; its pane, no longer
// waiting, gives the focus back.
func (a *Area) Reviewed(p *pane.Pane, ev event.ReviewFinished) {
	a.cfg.Status.Set(status.Info, Name(p)+": "+ev.Summary)
	if a.focus == p.ID() {
		a.FocusInput()
	}
}

// focusIndex is the position of the focused child among panes, -1 when
// none of them has the focus.
func focusIndex[P interface{ ID() event.AgentID }](panes []P, id event.AgentID) int {
	if id == "" {
		return -1
	}
	for i, p := range panes {
		if p.ID() == id {
			return i
		}
	}
	return -1
}
