// Package convo is one agent's conversation as data: its prompts, what it
// said and thought, its tool calls with their results, what the person
// sent in, its notices, the message it is streaming now, its report and
// its usage. It is built by the same Apply from live events and from a
// transcript's recorded events, for the main agent and every child alike,
// so the main conversation, a pane, the fold line, the transcript view
// and /subagents log are views of one model and none keeps its own copy.
package convo

import (
	"slices"
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
	// Compaction is where the main agent's history was replaced by a
	// summary: Title says what was replaced, Body is the summary.
	Compaction
)

// Entry is one part of a conversation. Its text was cleaned of control
// characters once, where the event entered the UI (termtext.Event);
// Title and Summary are one line, Body may have many.
type Entry struct {
	Kind  Kind
	Title string
	Body  string
	// Name is a tool call's tool; Diff is the diff an edit made, kept
	// apart from Body, the tool's output.
	Name, Diff string
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
	// Stopped marks a message or call an interruption cut short, and a
	// notice saying why a turn stopped early.
	Stopped bool
	// Version changes whenever the entry does, for a view's cache.
	Version int
}

// Model is one agent's conversation. Like every component it lives
// inside the root model's Update and is not safe for concurrent use.
type Model struct {
	name      string // the agent's type, the title of its messages
	prompt    string // a child's task; the main agent's prompts are entries
	report    string // a child's final text, its report to the parent
	entries   []Entry
	calls     map[string]int // open call ID → its entry
	text      strings.Builder
	reasoning strings.Builder
	textAt    int // the entry text streams into, -1 when none does
	thinkAt   int // the entry reasoning streams into, -1 when none does
	usage     event.Usage
	version   int
}

// New makes an empty conversation of an agent of type name.
func New(name string) *Model {
	return &Model{name: OneLine(name), calls: map[string]int{}, textAt: -1, thinkAt: -1}
}

// FromEvents builds the conversation a transcript recorded, the way
// live events build it; the events are cleaned as they were read.
func FromEvents(name string, events []event.Event) *Model {
	m := New(name)
	for _, ev := range events {
		m.Apply(ev)
	}
	m.flush()
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

// Report is a child's final text, its report to the parent, whole and
// cleaned; "" until it ended.
func (m *Model) Report() string { return m.report }

// Entries is the conversation so far: a child's prompt, then what the
// agent said and did in order. The slice is the caller's own.
func (m *Model) Entries() []Entry {
	out := make([]Entry, 0, len(m.entries)+1)
	if m.prompt != "" {
		out = append(out, Entry{Kind: Prompt, Title: "prompt", Body: m.prompt})
	}
	for i := range m.entries {
		if e := m.At(i); shown(e) {
			out = append(out, e)
		}
	}
	return out
}

// Last is at most n of the newest entries, the streaming ones included,
// without the prompt: what a pane's activity shows.
func (m *Model) Last(n int) []Entry {
	var out []Entry
	for i := len(m.entries) - 1; i >= 0 && len(out) < n; i-- {
		if e := m.At(i); shown(e) {
			out = append(out, e)
		}
	}
	slices.Reverse(out)
	return out
}

// Len is how many entries At reads: every entry, without a child's prompt.
func (m *Model) Len() int { return len(m.entries) }

// At is entry i, counted without a child's prompt; the entries already
// read keep their place as the conversation grows, so a view can cache
// each by its Version.
func (m *Model) At(i int) Entry {
	e := m.entries[i]
	switch i {
	case m.textAt:
		e.Body = m.text.String()
	case m.thinkAt:
		e.Body = m.reasoning.String()
	}
	return e
}

// shown says whether a list of entries includes e: a message that ended
// without a word is left out.
func shown(e Entry) bool {
	return e.Live || e.Kind != Text || strings.TrimSpace(e.Body) != ""
}

// OneLine folds s to one line of single spaces.
func OneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
