package ui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/seed-e4e525a6/baton/ui/agents"
	"github.com/seed-e4e525a6/baton/ui/convo"
	"github.com/seed-e4e525a6/baton/ui/status"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/transcript"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// defaultLogLimit is how many entries a log shows unless a limit is given.
const defaultLogLimit = 10

// logMsg carries a child's recorded events, read from its transcript in a
// Cmd.
type logMsg struct {
	title  string
	events []event.Event
	limit  int
	tools  bool
	err    error
}

// infoMsg is text a command read in a Cmd, for the conversation.
type infoMsg struct{ title, text string }

// showInfo puts a command's text into the conversation.
func (m *Model) showInfo(msg infoMsg) {
	m.conv.add(&note{kind: noteInfo, text: termtext.Clean(msg.title + "\n" + msg.text)})
	m.conv.toBottom()
}

// subagentsLog parses "<id|#> [limit] [tools]" and reads the child's
// transcript in a Cmd: it works for children of a resumed session too.
func (m *Model) subagentsLog(rest string) tea.Cmd {
	fields := strings.Fields(rest)
	if len(fields) == 0 {
		m.child("log", "")
		return nil
	}
	p, ok := m.child("log", fields[0])
	if !ok {
		return nil
	}
	limit, tools := defaultLogLimit, false
	for _, f := range fields[1:] {
		switch n, err := strconv.Atoi(f); {
		case f == "tools":
			tools = true
		case err != nil:
			m.status.Set(status.Error, fmt.Sprintf("/subagents log: %q is neither a limit nor \"tools\"; usage: /subagents log <id|#> [limit] [tools]", termtext.Clean(f)))
			return nil
		case n < 1:
			m.status.Set(status.Error, fmt.Sprintf("/subagents log: the limit must be 1 or more, got %d", n))
			return nil
		default:
			limit = n
		}
	}
	s, id, title := m.session, p.ID(), "Log of "+agents.Name(p)
	return func() tea.Msg {
		records, err := s.AgentRecords(id)
		if err != nil {
			return logMsg{err: fmt.Errorf("/subagents log: %w", err)}
		}
		return logMsg{title: title, events: recordedEvents(records), limit: limit, tools: tools}
	}
}

// recordedEvents decodes the events of a transcript; records of other
// kinds, and events this build does not know, are left out.
func recordedEvents(records []transcript.Record) []event.Event {
	var out []event.Event
	for _, rec := range records {
		if rec.Kind != transcript.KindEvent {
			continue
		}
		if ev, err := event.UnmarshalEvent(rec.Data); err == nil {
			out = append(out, termtext.Event(ev)) // where a transcript's events enter
		}
	}
	return out
}

// showLog puts a child's log into the conversation: its recorded events
// built into a conversation model the way live events build one, and
// drawn the way the transcript view draws it.
func (m *Model) showLog(msg logMsg) {
	if msg.err != nil {
		m.status.Set(status.Error, termtext.Clean(msg.err.Error()))
		return
	}
	var entries []convo.Entry
	for _, e := range convo.FromEvents("", msg.events).Entries() {
		if e.Kind != convo.ToolCall || msg.tools {
			entries = append(entries, e)
		}
	}
	m.conv.add(&logBlock{title: termtext.Clean(msg.title), entries: entries, limit: msg.limit})
	m.conv.toBottom()
}

// logBlock is a child's log in the conversation: its last limit entries.
type logBlock struct {
	title   string
	entries []convo.Entry
	limit   int
}

func (b *logBlock) render(rc *renderCtx, width int) []string {
	lines := []string{rc.styles.Conversation.Info.Render(b.title)}
	if len(b.entries) == 0 {
		return append(lines, rc.styles.Conversation.Info.Render("(no messages yet)"))
	}
	shown := b.entries[max(len(b.entries)-b.limit, 0):]
	if hidden := len(b.entries) - len(shown); hidden > 0 {
		lines = append(lines, rc.styles.Conversation.Info.Render(fmt.Sprintf("… %s before these", plural(hidden, "earlier entry/earlier entries"))))
	}
	for _, e := range shown {
		lines = append(lines, "")
		lines = append(lines, gutter(entryLines(rc, e, width-2), "  ")...)
	}
	return lines
}
