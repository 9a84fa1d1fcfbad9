package engine

import (
	"fmt"
	"slices"
)

// AgentMode is how freely the agents of a session may act, switched while
// the session runs (an editor's mode picker).
type AgentMode string

// The agent modes.
const (
	// AgentModeNormal asks before every call the rules do not allow.
	AgentModeNormal AgentMode = "normal"
	// AgentModeAutoAccept also runs file edits (write_file, edit_file)
	// without asking; an ask or deny rule still holds.
	AgentModeAutoAccept AgentMode = "auto-accept"
	// AgentModePlan runs read-only tools only: the agents look and plan,
	// and every call that could change something is refused.
	AgentModePlan AgentMode = "plan"
)

// AgentModes lists the modes in the order a picker shows them.
var AgentModes = []AgentMode{AgentModeNormal, AgentModeAutoAccept, AgentModePlan}

// editTools are the calls auto-accept runs without asking.
var editTools = []string{"write_file", "edit_file"}

// SetAgentMode switches the session's mode; it applies to every call
// decided from now on, children's included.
func (s *Session) SetAgentMode(m AgentMode) error {
	if !slices.Contains(AgentModes, m) {
		return fmt.Errorf("set mode: unknown mode %q (known: normal, auto-accept, plan)", m)
	}
	s.perms.mu.Lock()
	defer s.perms.mu.Unlock()
	s.perms.agentMode = m
	return nil
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
