package engine

import (
	"fmt"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// StopAgent stops one child; it ends cancelled with its partial text and
// its siblings carry on. "all" stops every child.
func (s *Session) StopAgent(id event.AgentID) error {
	if id == "all" {
		s.deleg.stopAll()
		return nil
	}
	h, err := s.deleg.handle(id)
	if err != nil {
		return err
	}
	h.cancel(errStopped)
	return nil
}

// SendToAgent queues a message for a running child, delivered before its
// next model request.
func (s *Session) SendToAgent(id event.AgentID, text string) error {
	h, err := s.deleg.handle(id)
	if err != nil {
		return err
	}
	if err := h.agent.inbox.push(text); err != nil {
		return fmt.Errorf("send to %s: %w", id, err)
	}
	return nil
}
