package child

import (
	"github.com/seed-e4e525a6/baton/engine/event"
)

// BackgroundChild is a child that ran in the background, as a headless
// report lists it.
type BackgroundChild struct {
	ID          event.AgentID `json:"id"`
	Number      int           `json:"number"`
	AgentType   string        `json:"agent_type"`
	Description string        `json:"description"`
	// Status is "running" until the child ends.
	Status event.Status `json:"status"`
	// Delivered says the main agent has received the result.
	Delivered bool `json:"delivered"`
}

// BackgroundChildren lists the children that ran in the background, in
// the order they were requested.
func (m *Manager) BackgroundChildren() []BackgroundChild {
	var out []BackgroundChild
	for _, c := range m.all() {
		if !c.isBackground() {
			continue
		}
		res, _, done := c.outcome()
		status := event.StatusRunning
		if done {
			status = res.Status
		}
		out = append(out, BackgroundChild{ID: c.id, Number: c.meta.Number, AgentType: c.meta.AgentType, Description: c.meta.Description,
			Status: status, Delivered: m.wasDelivered(c.id)})
	}
	return out
}
