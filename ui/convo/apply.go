package convo

import (
	"fmt"
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
	case event.TurnStarted:
		m.turnStarted(e)
	case event.TextDelta:
		m.stream(&m.textAt, &m.text, Text, m.name, e.Text)
	case event.ReasoningDelta:
		m.stream(&m.thinkAt, &m.reasoning, Reasoning, "reasoning", e.Text)
	case event.MessageDone:
		m.messageDone(e.Text)
	case event.ToolStarted:
		m.toolStarted(e)
	case event.ToolFinished:
		m.toolFinished(e)
	case event.UsageReported:
		m.usage = e.Total
	case event.AgentMessage:
		m.endStreams(false)
		m.note(Message, "you", e.Text, false)
	case event.Notice:
		m.note(Notice, "notice", e.Text, false)
	case event.Retrying:
		m.note(Notice, "notice", e.Line(e.Time), false)
	case event.ErrorOccurred:
		// The message it cut short stays open: its MessageDone, sent
		// around the error, completes it rather than adding it twice.
		m.endThinking()
		m.note(Notice, "error", e.Message, true)
	case event.TurnEnded:
		m.turnEnded(e.Status)
	case event.Compacted:
		if e.Summary == "" {
			return false
		}
		m.compacted(e)
	case event.AgentFinished:
		m.endStreams(false)
		m.report = strings.TrimSpace(e.Text)
	default:
		return false
	}
	m.version++
	return true
}

// turnStarted opens a turn of the main agent with the person's prompt,
// or with the line a background result woke it with.
func (m *Model) turnStarted(e event.TurnStarted) {
	m.endStreams(false)
	if e.Wake {
		m.note(Notice, "notice", e.Prompt, false)
		return
	}
	m.note(Prompt, "you", e.Prompt, false)
}

// stream grows the entry at *at, opening it on the first piece; text
// ends the reasoning before it.
func (m *Model) stream(at *int, b *strings.Builder, kind Kind, title, piece string) {
	if kind == Text {
		m.endThinking()
	}
	if *at < 0 {
		*at = len(m.entries)
		m.entries = append(m.entries, Entry{Kind: kind, Title: title, Live: true})
	}
	b.WriteString(piece)
	m.entries[*at].Version++
}

// messageDone finishes the streaming message with the engine's whole
// text, which wins over the deltas; a message that never streamed is
// added whole.
func (m *Model) messageDone(final string) {
	m.endThinking()
	if m.textAt < 0 {
		if strings.TrimSpace(final) == "" {
			return
		}
		m.stream(&m.textAt, &m.text, Text, m.name, "")
	}
	if final != "" {
		m.text.Reset()
		m.text.WriteString(final)
	}
	m.endStreams(false)
}

// endStreams closes the streaming message and reasoning; a message cut
// short by an interruption says so.
func (m *Model) endStreams(interrupted bool) {
	m.endThinking()
	if m.textAt >= 0 {
		e := &m.entries[m.textAt]
		e.Body, e.Live, e.Stopped = m.text.String(), false, interrupted
		e.Version++
		m.text.Reset()
		m.textAt = -1
	}
}

// endThinking closes the streaming reasoning.
func (m *Model) endThinking() {
	if m.thinkAt >= 0 {
		e := &m.entries[m.thinkAt]
		e.Body, e.Live = m.reasoning.String(), false
		e.Version++
		m.reasoning.Reset()
		m.thinkAt = -1
	}
}

// flush closes what streams, for a transcript read to its end.
func (m *Model) flush() { m.endStreams(false) }

// toolStarted opens a tool call's entry.
func (m *Model) toolStarted(e event.ToolStarted) {
	m.endStreams(false)
	title := OneLine(e.Title)
	if title == "" {
		title = OneLine(e.Name + " " + e.Args)
	}
	m.calls[e.CallID] = len(m.entries)
	m.entries = append(m.entries, Entry{Kind: ToolCall, Title: title, Name: OneLine(e.Name), CallID: e.CallID})
}

// toolFinished keeps a call's short and full result.
func (m *Model) toolFinished(e event.ToolFinished) {
	summary := OneLine(e.Summary)
	body, diff := strings.TrimRight(e.Output, "\n"), strings.TrimRight(e.Diff, "\n")
	if e.Denied {
		summary, body, diff = "denied", "", ""
		if reason := OneLine(e.DenyReason); reason != "" {
			summary += ": " + reason
		}
	}
	i, ok := m.calls[e.CallID]
	if !ok {
		i = len(m.entries)
		m.entries = append(m.entries, Entry{Kind: ToolCall, Title: OneLine(e.Name), Name: OneLine(e.Name), CallID: e.CallID})
	}
	delete(m.calls, e.CallID)
	en := &m.entries[i]
	en.Summary, en.Body, en.Diff, en.IsError, en.Denied, en.Done = summary, body, diff, e.IsError, e.Denied, true
	en.Version++
}

// turnEnded closes what still streams, marks calls that never finished,
// and says why a turn stopped early.
func (m *Model) turnEnded(status event.Status) {
	interrupted := status == event.StatusInterrupted || status == event.StatusCancelled
	hadLive := m.textAt >= 0
	m.endStreams(interrupted)
	for id, i := range m.calls {
		m.entries[i].Stopped = true
		m.entries[i].Version++
		delete(m.calls, id)
	}
	stop := func(text string) {
		m.entries = append(m.entries, Entry{Kind: Notice, Title: "stopped", Body: text, Stopped: true})
	}
	switch {
	case interrupted && !hadLive:
		stop("interrupted")
	case status == event.StatusMaxSteps:
		stop("stopped: the step limit was reached")
	case status == event.StatusTimedOut:
		stop("stopped: the turn timed out")
	}
}

// compacted records where the history was replaced by a summary.
func (m *Model) compacted(e event.Compacted) {
	m.endStreams(false)
	what := "compacted"
	if e.Auto {
		what = "auto-compacted"
	}
	line := fmt.Sprintf("%s: %s replaced by a summary", what, event.Plural(e.Replaced, "message"))
	if e.Focus != "" {
		line += " (focus: " + e.Focus + ")"
	}
	m.entries = append(m.entries, Entry{Kind: Compaction, Title: line, Body: e.Summary})
}

// note records a prompt, a message sent in, a notice or an error.
func (m *Model) note(kind Kind, title, text string, isError bool) {
	body := strings.TrimRight(text, "\n")
	m.entries = append(m.entries, Entry{Kind: kind, Title: title, Body: body, IsError: isError})
}

// End closes what was streaming and the calls still open, saying why
// they have no result.
func (m *Model) End(noResult string) {
	m.flush()
	for id, i := range m.calls {
		m.entries[i].Summary = noResult
		m.entries[i].Version++
		delete(m.calls, id)
	}
	m.version++
}

// Append records an entry the events do not carry: how the agent ended,
// what the review of its change decided, the output of a command.
func (m *Model) Append(e Entry) {
	m.entries = append(m.entries, e)
	m.version++
}
