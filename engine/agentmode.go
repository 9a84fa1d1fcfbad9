package engine

import "github.com/seed-e4e525a6/baton/engine/permission"

// SetAgentMode switches the session's mode; it applies to every call
// decided from now on, children's included.
func (s *Session) SetAgentMode(m permission.AgentMode) error { return s.perms.SetAgentMode(m) }

// AgentMode is the session's current mode.
func (s *Session) AgentMode() permission.AgentMode { return s.perms.AgentMode() }
