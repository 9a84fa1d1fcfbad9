// Package convo is one agent's conversation as data: its prompt, what it
// said and thought, its tool calls with their results, what the person
// sent in, its notices, the message it is streaming now and its usage.
// It is built by the same Apply from live events and from a transcript's
// recorded events, so the pane, the fold line, the transcript view and
// /subagents log are views of one model and none keeps its own copy.
package convo

import (
	"strings"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// Kind says what one entry is.
type Kind int

// The kinds of entries.
const (
	// Prompt is the task the agent was given.
	Prompt Kind = iota
	// Text is a message of the agent.
	Text
	// Reasoning is the agent's thinking before a message.
	Reasoning
	// ToolCall is one tool call with its result.
	ToolCall
	// Message is a message the person sent into the agent.
	Message
	// Notice is a status line or an error.
	Notice
	// Status is how the agent ended, always the last entry.
	Status
)

// Entry is one part of a conversation. Its text was cleaned of control
// characters once, where the event entered the UI (termtext.Event);
// Title and Summary are one line, Body may have many.
type Entry struct {
	Kind  Kind
	Title string
	Body  string
	// Summary is a tool call's short result ("120 lines"), or a final
	// status's stats ("8 tools, 5.1s, 3.2k tok").
	Summary string
	IsError bool
	// Denied marks a tool call the person refused; Summary then says so.
	Denied bool
	// CallID names a tool call; Done says its result came.
	CallID string
	Done   bool
	// Live marks the message being streamed now, whose Body grows.
	Live bool
}

// Model is one agent's conversation. Like every component it lives
// inside the root model's Update and is not safe for concurrent use.
type Model struct {
	name      string // the agent's type, the title of its messages
	prompt    string
	entries   []Entry
	calls     map[string]int // open call ID → its entry
	text      strings.Builder
	reasoning strings.Builder
	usage     event.Usage
	version   int
}

// New makes an empty conversation of an agent of type name.
func New(name string) *Model {
	return &Model{name: OneLine(name), calls: map[string]int{}}
}

// FromEvents builds the conversation a transcript recorded, the way
// live events build it; the events are cleaned as they were read.
func FromEvents(name string, events []event.Event) *Model {
	m := New(name)
	for _, ev := range events {
		m.Apply(ev)
	}
	m.flush("")
	return m
}

// SetName names the agent's type once it is known.
func (m *Model) SetName(name string) { m.name = OneLine(name) }

// Version changes whenever the conversation does, for caches.
func (m *Model) Version() int { return m.version }

// Prompt is the task the agent was given, cleaned.
func (m *Model) Prompt() string { return m.prompt }

// Usage is the agent's running totals.
func (m *Model) Usage() event.Usage { return m.usage }

// Entries is the conversation so far: the prompt, then what the agent
// said and did in order, the message it streams now last. The slice is
// the caller's own.
func (m *Model) Entries() []Entry {
	out := make([]Entry, 0, len(m.entries)+3)
	if m.prompt != "" {
		out = append(out, Entry{Kind: Prompt, Title: "prompt", Body: m.prompt})
	}
	out = append(out, m.entries...)
	return append(out, m.live()...)
}

// Last is at most n of the newest entries, the streaming ones included,
// without the prompt: what a pane's activity shows.
func (m *Model) Last(n int) []Entry {
	live := m.live()
	from := max(len(m.entries)-max(n-len(live), 0), 0)
	out := append(make([]Entry, 0, n), m.entries[from:]...)
	return append(out, live...)
}

// live are the reasoning and message being streamed.
func (m *Model) live() []Entry {
	var out []Entry
	if m.reasoning.Len() > 0 {
		out = append(out, Entry{Kind: Reasoning, Title: "reasoning", Body: m.reasoning.String(), Live: true})
	}
	if m.text.Len() > 0 {
		out = append(out, Entry{Kind: Text, Title: m.name, Body: m.text.String(), Live: true})
	}
	return out
}

// OneLine folds s to one line of single spaces.
func OneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
