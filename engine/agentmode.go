package engine

import (
	"fmt"
	"slices"
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

// AgentModes lists the modes in the order a picker shows them.
var AgentModes = event.AgentModes

// editTools are the calls auto-accept runs without asking.
var editTools = []string{"write_file", "edit_file"}

// SetAgentMode switches the session's mode; it applies to every call
// decided from now on, children's included. ModeChanged tells the front
// end.
func (s *Session) SetAgentMode(m AgentMode) error {
	if !slices.Contains(AgentModes, m) {
		return fmt.Errorf("set mode: unknown mode %q (known: normal, auto-accept, plan)", m)
	}
	s.switchMode(m, false)
	return nil
}

// switchMode sets the mode and says so on the event channel; planAccepted
// says accepting a plan left plan mode.
func (s *Session) switchMode(m AgentMode, planAccepted bool) {
	s.perms.mu.Lock()
	s.perms.agentMode = m
	s.perms.mu.Unlock()
	s.send(event.ModeChanged{Meta: event.Meta{Agent: event.MainAgent, Time: time.Now()}, Mode: m, PlanAccepted: planAccepted})
}

// AgentMode is the session's current mode.
func (s *Session) AgentMode() AgentMode {
	return s.perms.currentMode()
}

// currentMode is the mode calls are decided by now.
func (p *permissions) currentMode() AgentMode {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.agentMode == "" {
		return AgentModeNormal
	}
	return p.agentMode
}
