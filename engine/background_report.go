package engine

import (
	"time"

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

// Quiet reports whether nothing will happen without the person: no turn
// runs, no background child runs, and no result waits for a turn that
// will start on its own. A headless run exits once it is quiet.
func (s *Session) Quiet() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return !s.busy && len(s.bgLive) == 0 && (len(s.queued) == 0 || !s.mayWake())
}

// BackgroundChildren lists the children that ran in the background, in
// the order they were requested.
func (s *Session) BackgroundChildren() []BackgroundChild {
	var out []BackgroundChild
	for _, run := range s.deleg.allRuns() {
		if !run.isBackground() {
			continue
		}
		res, _, done := run.outcome()
		status := event.StatusRunning
		if done {
			status = res.Status
		}
		s.mu.Lock()
		delivered := s.delivered[run.id]
		s.mu.Unlock()
		out = append(out, BackgroundChild{ID: run.id, Number: run.number, AgentType: run.meta.AgentType, Description: run.meta.Description, Status: status, Delivered: delivered})
	}
	return out
}

// stampOf returns m with the current time.
func stampOf(m event.Meta) event.Meta {
	m.Time = time.Now()
	return m
}
