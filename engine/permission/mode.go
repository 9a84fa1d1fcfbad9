package permission

import (
	"fmt"
	"slices"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// AgentMode is how freely the agents of a session may act (see
// event.AgentMode).
type AgentMode = event.AgentMode

// The agent modes.
const (
	AgentModeNormal     = event.AgentModeNormal
	AgentModeAutoAccept = event.AgentModeAutoAccept
	AgentModePlan       = event.AgentModePlan
)

// editTools are the calls auto-accept runs without asking.
var editTools = []string{"write_file", "edit_file"}

// SetAgentMode switches the mode; it applies to every call decided from
// now on, children's included.
func (p *Policy) SetAgentMode(m AgentMode) error {
	if !slices.Contains(event.AgentModes, m) {
		return fmt.Errorf("set mode: unknown mode %q (known: normal, auto-accept, plan)", m)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.agentMode = m
	return nil
}

// AgentMode is the mode calls are decided by now.
func (p *Policy) AgentMode() AgentMode {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.agentMode == "" {
		return AgentModeNormal
	}
	return p.agentMode
}

// Mode is how calls that need approval are decided.
func (p *Policy) Mode() Mode { return p.mode }
