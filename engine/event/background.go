package event

// Background children: a child whose parent's task call returned before it
// ended. Its result reaches the main agent later, so the session says when
// the call let go of it, when the result waits and when it was delivered;
// the transcript keeps the last so a result is never delivered twice nor
// lost across a quit.

// AgentBackgrounded says a child runs on in the background: the parent's
// task call has returned with its id (background: true, or the person
// pressed b on its pane). It carries the child's Meta.
type AgentBackgrounded struct {
	Meta
	// By is "task" when the call asked for it, "person" for the b key.
	By string `json:"by"`
}

// ResultQueued says a background child's result waits for the main
// agent: it is injected before the main agent's next request, starts a
// turn of its own, or waits for the next prompt. It carries the child's
// Meta and is sent after the child's AgentFinished.
type ResultQueued struct {
	Meta
	Status Status `json:"status"`
	// Waits is set when no turn will take the result until the person
	// sends a prompt ([subagents] wake_on_result = false).
	Waits bool `json:"waits,omitempty"`
}

// ResultDelivered says a background child's result entered the main
// agent's history (injected before a request, in a wake turn, or returned
// by task_wait). It carries the main agent's Meta.
type ResultDelivered struct {
	Meta
	Child  AgentID `json:"child"`
	Number int     `json:"number"`
	Status Status  `json:"status"`
	// Via is "inject", "wake", "task_wait" or "resume".
	Via string `json:"via"`
}

// Kind implements Event.
func (AgentBackgrounded) Kind() string { return "agent_backgrounded" }

// Kind implements Event.
func (ResultQueued) Kind() string { return "result_queued" }

// Kind implements Event.
func (ResultDelivered) Kind() string { return "result_delivered" }
