package convo

import (
	"strings"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// Apply folds one event into the conversation; it reports whether the
// conversation changed. An agent's ending closes what it was streaming;
// its status entry is End's.
func (m *Model) Apply(ev event.Event) bool {
	switch e := ev.(type) {
	case event.ApprovalRequested:
		if e.Request == nil || e.Request.Kind != event.ApproveDelegation || e.Request.Delegation == nil {
			return false
		}
		m.prompt = termtext.Clean(e.Request.Delegation.Prompt) // shared with the engine, so not cleaned at entry
	case event.AgentStarted:
		m.prompt = e.Prompt
	case event.TextDelta:
		m.text.WriteString(e.Text)
	case event.ReasoningDelta:
		m.reasoning.WriteString(e.Text)
	case event.MessageDone:
		m.flush(e.Text)
	case event.ToolStarted:
		m.toolStarted(e)
	case event.ToolFinished:
		m.toolFinished(e)
	case event.UsageReported:
		m.usage = e.Total
	case event.AgentMessage:
		m.note(Message, "you", e.Text, false)
	case event.Notice:
		m.note(Notice, "notice", e.Text, false)
	case event.Retrying:
		m.note(Notice, "notice", e.Line(e.Time), false)
	case event.ErrorOccurred:
		m.note(Notice, "error", e.Message, true)
	case event.AgentFinished:
		m.flush("")
	default:
		return false
	}
	m.version++
	return true
}

// flush moves the streamed reasoning and text into the conversation.
// final, when set, is the message's whole text and replaces what was
// streamed; it also covers a provider that sent no deltas.
func (m *Model) flush(final string) {
	if m.reasoning.Len() > 0 {
		m.entries = append(m.entries, Entry{Kind: Reasoning, Title: "reasoning", Body: m.reasoning.String()})
		m.reasoning.Reset()
	}
	text := final
	if final == "" {
		text = m.text.String()
	}
	m.text.Reset()
	if strings.TrimSpace(text) != "" {
		m.entries = append(m.entries, Entry{Kind: Text, Title: m.name, Body: text})
	}
}

// toolStarted opens a tool call's entry.
func (m *Model) toolStarted(e event.ToolStarted) {
	title := OneLine(e.Title)
	if title == "" {
		title = OneLine(e.Name + " " + e.Args)
	}
	m.calls[e.CallID] = len(m.entries)
	m.entries = append(m.entries, Entry{Kind: ToolCall, Title: title, CallID: e.CallID})
}

// toolFinished keeps a call's short and full result.
func (m *Model) toolFinished(e event.ToolFinished) {
	summary := OneLine(e.Summary)
	body := e.Output
	if e.Diff != "" {
		body = e.Diff
	}
	body = strings.TrimRight(body, "\n")
	if e.Denied {
		summary, body = "denied", ""
		if reason := OneLine(e.DenyReason); reason != "" {
			summary += ": " + reason
		}
	}
	i, ok := m.calls[e.CallID]
	if !ok {
		i = len(m.entries)
		m.entries = append(m.entries, Entry{Kind: ToolCall, Title: OneLine(e.Name), CallID: e.CallID})
	}
	delete(m.calls, e.CallID)
	en := &m.entries[i]
	en.Summary, en.Body, en.IsError, en.Denied, en.Done = summary, body, e.IsError, e.Denied, true
}

// note records a message sent in, a notice or an error.
func (m *Model) note(kind Kind, title, text string, isError bool) {
	body := strings.TrimRight(text, "\n")
	m.entries = append(m.entries, Entry{Kind: kind, Title: title, Body: body, IsError: isError})
}

// End closes what was streaming and the calls still open, saying why
// they have no result.
func (m *Model) End(noResult string) {
	m.flush("")
	for id, i := range m.calls {
		m.entries[i].Summary = noResult
		delete(m.calls, id)
	}
	m.version++
}

// Append records an entry the events do not carry: how the agent ended,
// what the review of its change decided.
func (m *Model) Append(e Entry) {
	m.entries = append(m.entries, e)
	m.version++
}
