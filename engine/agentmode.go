package engine

import (
	"time"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// AgentMode is how freely the agents of a session may act, switched while
// the session runs (the TUI's shift+tab, an editor's mode picker).
type AgentMode = event.AgentMode

// The agent modes (see event.AgentMode).
const (
	AgentModeNormal     = event.AgentModeNormal
	AgentModeAutoAccept = event.AgentModeAutoAccept
	AgentModePlan       = event.AgentModePlan
)

// SetAgentMode switches the session's mode; it applies to every call
// decided from now on, children's included. ModeChanged tells the front
// end.
func (s *Session) SetAgentMode(m AgentMode) error {
	if err := s.perms.SetAgentMode(m); err != nil {
		return err
	}
	s.modeChanged(m, false)
	return nil
}

// switchMode sets the mode and says so on the event channel; planAccepted
// says accepting a plan left plan mode.
func (s *Session) switchMode(m AgentMode, planAccepted bool) {
	if s.perms.SetAgentMode(m) == nil {
		s.modeChanged(m, planAccepted)
	}
}

// modeChanged tells the front end the mode is now m.
func (s *Session) modeChanged(m AgentMode, planAccepted bool) {
	s.send(event.ModeChanged{Meta: event.Meta{Agent: event.MainAgent, Time: time.Now()}, Mode: m, PlanAccepted: planAccepted})
}

// AgentMode is the session's current mode.
func (s *Session) AgentMode() AgentMode { return s.perms.AgentMode() }
