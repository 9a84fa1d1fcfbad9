package child

import (
	"time"

	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/event"
)

// What the person did to a child reaches its parent in one form
// (event.PersonNote), a line of the task call's result.

// personNote is one such line.
func personNote(what string) string { return event.PersonNote(what) }

// tellParent keeps a note for the parent's result.
func (c *Child) tellParent(what string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.personNotes = append(c.personNotes, personNote(what))
}

// ranFor is how long the child has run, for the notes ("41s").
func (c *Child) ranFor() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.begin.IsZero() {
		return "before it started"
	}
	return "after " + time.Since(c.begin).Round(time.Second).String()
}

// WindDown asks a running child to stop calling tools and report what it
// has in one last step (status stopped); asked again, or for a child that
// has not started, it aborts the child at once. aborted says which.
func (m *Manager) WindDown(id event.AgentID) (aborted bool, err error) {
	c, err := m.live(id)
	if err != nil {
		return false, err
	}
	c.mu.Lock()
	again, running := c.woundDown, c.handle != nil
	c.woundDown = true
	c.mu.Unlock()
	if again || !running {
		m.abort(c)
		return true, nil
	}
	if err := c.control(Control{Kind: WindDown}); err != nil {
		m.abort(c)
		return true, nil
	}
	c.tellParent("wound down the sub-agent " + c.ranFor())
	return false, nil
}

// abort stops a child at once, saying so to its parent.
func (m *Manager) abort(c *Child) {
	c.tellParent("aborted the sub-agent " + c.ranFor())
	c.cancel(agent.ErrStopped)
}

// maxEditedSteps bounds the steps a card may give a child, as the
// config's maximum does.
const maxEditedSteps = 1000

// applyEdits takes the limits the person set on the card, saying so to
// the parent. Bounds no config exceeds still hold.
func (c *Child) applyEdits(ans event.Answer) {
	l := ans.EditedLimits
	if l == nil {
		return
	}
	spec := c.spec
	before := event.Limits{MaxSteps: spec.MaxSteps, Timeout: spec.Timeout, Budget: spec.Budget}
	if l.MaxSteps > 0 {
		spec.MaxSteps = min(l.MaxSteps, maxEditedSteps)
	}
	if l.Timeout > 0 {
		spec.Timeout = min(l.Timeout, maxTimeoutS*time.Second)
	}
	if l.Budget.Tokens >= 0 && l.Budget.CostUSD >= 0 {
		spec.Budget = l.Budget
	}
	after := event.Limits{MaxSteps: spec.MaxSteps, Timeout: spec.Timeout, Budget: spec.Budget}
	if after != before {
		c.tellParent("changed the budget to " + after.Line())
	}
}
