package event

import "time"

// AgentQueued says a child waits for a free slot (max_concurrent).
type AgentQueued struct {
	Meta
	Position int `json:"position"`
}

// AgentStarted says a child begins its loop.
type AgentStarted struct {
	Meta
	Prompt   string        `json:"prompt"`
	Model    string        `json:"model"`
	Tools    []string      `json:"tools"`
	MaxSteps int           `json:"max_steps"`
	Timeout  time.Duration `json:"timeout"`
	// Budget bounds its tokens and cost.
	Budget Budget `json:"budget"`
	// Transcript is the child's own transcript file ("" without one).
	Transcript string `json:"transcript,omitempty"`
	// Sandbox says what the child's commands run under
	// ("workspace-write · network off", or why they are unsandboxed).
	Sandbox string `json:"sandbox,omitempty"`
	// TypeName is the agent type's registry name ("explore"), so a
	// follow-up after a quit rebuilds the same tools.
	TypeName string `json:"type_name,omitempty"`
	// Continues is the finished child this one continues (task resume,
	// /subagents send to a finished child); its history came along.
	Continues AgentID `json:"continues,omitempty"`
	// Runner says where the child's loop runs: "local" (baton's own
	// process) or "process" (a baton child process of its own).
	Runner string `json:"runner,omitempty"`
	// Detachable says the child can outlive baton: its runner keeps it
	// running when baton quits with d (or dies), and --continue takes it
	// up again.
	Detachable bool `json:"detachable,omitempty"`
}

// AgentPlaced says where a child runs once its runner has placed it
// ("local", "process", "container <image>", "k8s <namespace>/<job>"),
// and how long placing it took (its start latency).
type AgentPlaced struct {
	Meta
	Where   string        `json:"where"`
	Latency time.Duration `json:"latency"`
}

// AgentMessage says a message from the person was delivered into a child.
type AgentMessage struct {
	Meta
	Text string `json:"text"`
}

// AgentFinished says a child ended. Result is what the parent receives.
type AgentFinished struct {
	Meta
	Status Status `json:"status"`
	Reason string `json:"reason,omitempty"`
	Stats  Stats  `json:"stats"`
	Text   string `json:"text"`
	Result string `json:"result"`
	// Use is its use against its budget and limits.
	Use Use `json:"use"`
	// Person are the "[person: …]" notes its parent was told.
	Person []string `json:"person,omitempty"`
	// Transcript is the child's own transcript file ("" without one).
	Transcript string `json:"transcript,omitempty"`
	// Change is a worktree child's change (nil for a shared child).
	Change *Change `json:"change,omitempty"`
}

// Kind implements Event.
func (AgentQueued) Kind() string { return "agent_queued" }

// Kind implements Event.
func (AgentStarted) Kind() string { return "agent_started" }

// Kind implements Event.
func (AgentPlaced) Kind() string { return "agent_placed" }

// Kind implements Event.
func (AgentMessage) Kind() string { return "agent_message" }

// Kind implements Event.
func (AgentFinished) Kind() string { return "agent_finished" }
