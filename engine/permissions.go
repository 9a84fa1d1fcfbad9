package engine

import (
	"fmt"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// Rules lists the session's standing rules: config files, flags and what
// the person added.
func (s *Session) Rules() []event.PermissionRule { return s.perms.Rules() }

// AddRule adds a standing rule for the rest of the session; its Source
// is set to the session.
func (s *Session) AddRule(r event.PermissionRule) error {
	if err := s.perms.Add(r); err != nil {
		return fmt.Errorf("add rule: %w", err)
	}
	return nil
}

// RemoveRule drops a standing rule for the rest of the session.
func (s *Session) RemoveRule(kind, rule string) error {
	if err := s.perms.Remove(kind, rule); err != nil {
		return fmt.Errorf("remove rule: %w", err)
	}
	return nil
}
