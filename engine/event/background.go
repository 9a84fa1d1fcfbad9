package event

import (
	"fmt"
	"strings"
)

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

// AgentDetached says baton let go of a running child without stopping
// it (quit with d): it runs on where it was placed, and --continue
// re-attaches it, or delivers its result once it has ended. It carries
// the child's Meta.
type AgentDetached struct {
	Meta
}

// Kind implements Event.
func (AgentDetached) Kind() string { return "agent_detached" }

// ResultQueued says a background child's result waits for the main
// agent: it is injected before the main agent's next request, starts a
// turn of its own, or waits for the next prompt. It carries the child's
// Meta and is sent after the child's AgentFinished.
type ResultQueued struct {
	Meta
	Status Status `json:"status"`
	// Waits is set when no turn will take the result until the person
	// sends a prompt ([subagents] wake_on_result = false). A result held
	// because the prompt's wake turns are spent is said by ResultsHeld.
	Waits bool `json:"waits,omitempty"`
}

// ResultsHeld says background results will not wake the main agent any
// more: the turns results may start after one prompt of the person
// ([limits] wake_turns_per_prompt) are spent, so they wait for the next
// prompt, which takes them. It carries the main agent's Meta and names
// the children whose results are held that were not said to wait before.
type ResultsHeld struct {
	Meta
	Children []AgentID `json:"children"`
	// WakeTurns is the bound that was reached.
	WakeTurns int `json:"wake_turns"`
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

// Kind implements Event.
func (ResultsHeld) Kind() string { return "results_held" }

// Text says which results wait and why, for the status line and stderr.
func (e ResultsHeld) Text() string {
	names := make([]string, len(e.Children))
	for i, c := range e.Children {
		names[i] = string(c)
	}
	what, verb := "the result of ", "waits"
	if len(names) > 1 {
		what, verb = "the results of ", "wait"
	}
	return fmt.Sprintf("%s%s %s for the next prompt (limits.wake_turns_per_prompt = %d reached)",
		what, strings.Join(names, ", "), verb, e.WakeTurns)
}
