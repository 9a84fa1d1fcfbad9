package event

// AgentMode is how freely the agents of a session may act, switched while
// the session runs (the TUI's shift+tab, an editor's mode picker).
type AgentMode string

// The agent modes.
const (
	// AgentModeNormal asks before every call the rules do not allow.
	AgentModeNormal AgentMode = "normal"
	// AgentModeAutoAccept also runs file edits (write_file, edit_file)
	// without asking; an ask or deny rule still holds.
	AgentModeAutoAccept AgentMode = "auto-accept"
	// AgentModePlan runs read-only tools only: the agents look and plan,
	// and every call that could change something is refused until the
	// person accepts the plan (or switches the mode).
	AgentModePlan AgentMode = "plan"
)

// AgentModes lists the modes in the order a picker shows them and
// shift+tab cycles them.
var AgentModes = []AgentMode{AgentModeNormal, AgentModeAutoAccept, AgentModePlan}

// Label is how the mode is shown to people.
func (m AgentMode) Label() string {
	switch m {
	case AgentModeAutoAccept:
		return "auto-accept edits"
	case AgentModePlan:
		return "plan mode"
	}
	return "normal mode"
}

// Next is the mode after m in AgentModes, round again.
func (m AgentMode) Next() AgentMode {
	for i, mode := range AgentModes {
		if mode == m {
			return AgentModes[(i+1)%len(AgentModes)]
		}
	}
	return AgentModeNormal
}

// ModeChanged says the session's mode is now Mode: the person switched it,
// or accepting a plan left plan mode. It is not recorded: a resumed
// session starts in normal mode.
type ModeChanged struct {
	Meta
	Mode AgentMode `json:"mode"`
	// PlanAccepted says the person accepted the main agent's plan, which
	// left plan mode; otherwise the front end switched it.
	PlanAccepted bool `json:"plan_accepted,omitempty"`
}

// Kind implements Event.
func (ModeChanged) Kind() string { return "mode_changed" }
