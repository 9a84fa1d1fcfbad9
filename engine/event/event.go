package event

import (
	"time"
)

// AgentID names one agent of a session: "main" for the agent the person
// talks to, a short readable id for every child.
type AgentID string

// MainAgent is the ID of the session's top-level agent.
const MainAgent AgentID = "main"

// Meta is carried by every event: which agent it concerns, that agent's
// parent (empty for the main agent) and, for children, the type,
// description, number and the parent's task call the UI needs to draw and
// place a pane without any other lookup: the UI routes by these, never by
// parsing an id or matching a description.
type Meta struct {
	Agent  AgentID `json:"agent"`
	Parent AgentID `json:"parent,omitempty"`
	// Number is a child's number in the session (1, 2, …, never reused,
	// resumes included): the #N /subagents and task_status take; 0 for
	// the main agent.
	Number int `json:"number,omitempty"`
	// TaskCall is the ID of the parent's task call that started the child.
	TaskCall    string    `json:"task_call,omitempty"`
	AgentType   string    `json:"agent_type,omitempty"`
	Description string    `json:"description,omitempty"`
	Time        time.Time `json:"time"`
}

// Event is one thing that happened in a session. Events of one agent arrive
// in the order they happened; the concrete types below are the whole set.
type Event interface {
	// EventMeta returns the agent tagging of the event.
	EventMeta() Meta
	// Kind is the stable, snake_case name used in stream-json output.
	Kind() string
}

// EventMeta implements Event for every type embedding Meta.
func (m Meta) EventMeta() Meta { return m }

// TurnStarted opens a turn of the main agent for a user message.
type TurnStarted struct {
	Meta
	Prompt string `json:"prompt"`
	// Wake is set for a turn a background child's result started on its
	// own; Prompt then reads "[#3 done] …" and no person wrote it.
	Wake bool `json:"wake,omitempty"`
}

// TextDelta is a coalesced piece of assistant text.
type TextDelta struct {
	Meta
	Text string `json:"text"`
}

// ReasoningDelta is a coalesced piece of the model's reasoning, when the
// provider streams it.
type ReasoningDelta struct {
	Meta
	Text string `json:"text"`
}

// MessageDone marks the end of one assistant message (one model request);
// Text is the whole message text.
type MessageDone struct {
	Meta
	Text string `json:"text"`
}

// StepStarted says the agent sends its Step-th model request of at most Max.
type StepStarted struct {
	Meta
	Step int `json:"step"`
	Max  int `json:"max"`
}

// ToolStarted says a tool call begins. Title is the one-line rendering
// ("read_file engine/loop.go").
type ToolStarted struct {
	Meta
	CallID string `json:"call_id"`
	Name   string `json:"name"`
	Args   string `json:"args"`
	Title  string `json:"title"`
}

// ToolFinished carries a tool call's outcome. Summary is short
// ("120 lines"); Output is the (bounded) text the model receives; Diff is
// a unified diff for edits.
type ToolFinished struct {
	Meta
	CallID  string `json:"call_id"`
	Name    string `json:"name"`
	Summary string `json:"summary"`
	Output  string `json:"output"`
	Diff    string `json:"diff,omitempty"`
	IsError bool   `json:"is_error"`
	// Denied is set when the person refused the call at a permission
	// prompt; DenyReason is what they said, if anything.
	Denied     bool   `json:"denied,omitempty"`
	DenyReason string `json:"deny_reason,omitempty"`
}

// UsageReported is sent after every model request with that request's
// usage and cost and the agent's running totals.
type UsageReported struct {
	Meta
	Request Usage `json:"request"`
	Total   Usage `json:"total"`
}

// Notice is a status line for the person (a fallback taken, a warning).
type Notice struct {
	Meta
	Text string `json:"text"`
}

// ErrorOccurred reports a failure with a human reason, e.g. a provider
// error; the turn or child ends after it.
type ErrorOccurred struct {
	Meta
	Message string `json:"message"`
}

// TurnEnded closes a turn of the main agent.
type TurnEnded struct {
	Meta
	Status Status `json:"status"`
	Text   string `json:"text"`
	Usage  Usage  `json:"usage"`
}

// ApprovalRequested asks the person to decide. The request holds its own
// reply channel; the asking goroutine waits on it and on its context.
type ApprovalRequested struct {
	Meta
	Request *ApprovalRequest `json:"request"`
}

// ApprovalResolved records the answer given (by a person, a remembered
// choice or a flag).
type ApprovalResolved struct {
	Meta
	RequestID string `json:"request_id"`
	Answer    Answer `json:"answer"`
	By        string `json:"by"`
}

// ConversationCleared says the person started a new conversation; a
// resumed session forgets the history before it.
type ConversationCleared struct {
	Meta
}

// Each Kind returns the event's stream-json "type".

// Kind implements Event.
func (TurnStarted) Kind() string { return "turn_started" }

// Kind implements Event.
func (TextDelta) Kind() string { return "text" }

// Kind implements Event.
func (ReasoningDelta) Kind() string { return "reasoning" }

// Kind implements Event.
func (MessageDone) Kind() string { return "message_done" }

// Kind implements Event.
func (StepStarted) Kind() string { return "step" }

// Kind implements Event.
func (ToolStarted) Kind() string { return "tool_started" }

// Kind implements Event.
func (ToolFinished) Kind() string { return "tool_finished" }

// Kind implements Event.
func (UsageReported) Kind() string { return "usage" }

// Kind implements Event.
func (Notice) Kind() string { return "notice" }

// Kind implements Event.
func (ErrorOccurred) Kind() string { return "error" }

// Kind implements Event.
func (TurnEnded) Kind() string { return "turn_ended" }

// Kind implements Event.
func (ApprovalRequested) Kind() string { return "approval_requested" }

// Kind implements Event.
func (ApprovalResolved) Kind() string { return "approval_resolved" }

// Kind implements Event.
func (ConversationCleared) Kind() string { return "conversation_cleared" }
