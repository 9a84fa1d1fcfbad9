package command

import (
	"fmt"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/transcript"
	"github.com/seed-e4e525a6/baton/themes"
	"github.com/seed-e4e525a6/baton/ui/agents"
	"github.com/seed-e4e525a6/baton/ui/convo"
	"github.com/seed-e4e525a6/baton/ui/status"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// defaultLogLimit is how many entries a log shows unless a limit is given.
const defaultLogLimit = 10

// childLog is /subagents log <id|#> [limit] [tools]: the child's last
// messages, read from its transcript in a Cmd, so it works for children
// of a resumed session too.
func childLog(env *Env, rest string) tea.Cmd {
	fields := strings.Fields(rest)
	if len(fields) == 0 {
		child(env, "log", "")
		return nil
	}
	p, ok := child(env, "log", fields[0])
	if !ok {
		return nil
	}
	limit, tools := defaultLogLimit, false
	for _, f := range fields[1:] {
		switch n, err := strconv.Atoi(f); {
		case f == "tools":
			tools = true
		case err != nil:
			env.Status.Set(status.Error, fmt.Sprintf("/subagents log: %q is neither a limit nor \"tools\"; usage: /subagents log <id|#> [limit] [tools]", termtext.Clean(f)))
			return nil
		case n < 1:
			env.Status.Set(status.Error, fmt.Sprintf("/subagents log: the limit must be 1 or more, got %d", n))
			return nil
		default:
			limit = n
		}
	}
	s, id, title := env.Session, p.ID(), "Log of "+agents.Name(p)
	return func() tea.Msg {
		records, err := s.AgentRecords(id)
		if err != nil {
			return status.Said{Level: status.Error, Text: termtext.Clean(fmt.Sprintf("/subagents log: %v", err))}
		}
		return Result{Block: newLog(title, recordedEvents(records), limit, tools)}
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

// log is a child's log in the conversation: its recorded events built
// into a conversation model the way live events build one, its last
// limit entries drawn the way the transcript view draws them.
type log struct {
	title   string
	entries []convo.Entry
	limit   int
}

// newLog builds the log of events; tools keeps the tool calls.
func newLog(title string, events []event.Event, limit int, tools bool) *log {
	var entries []convo.Entry
	for _, e := range convo.FromEvents("", events).Entries() {
		if e.Kind != convo.ToolCall || tools {
			entries = append(entries, e)
		}
	}
	return &log{title: termtext.Clean(title), entries: entries, limit: limit}
}

// Lines draws the log at width.
func (b *log) Lines(styles *themes.Styles, width int, draw func(convo.Entry, int) []string) []string {
	info := styles.Conversation.Info
	lines := []string{info.Render(b.title)}
	if len(b.entries) == 0 {
		return append(lines, info.Render("(no messages yet)"))
	}
	shown := b.entries[max(len(b.entries)-b.limit, 0):]
	if hidden := len(b.entries) - len(shown); hidden > 0 {
		lines = append(lines, info.Render(fmt.Sprintf("… %s before these", event.Plural(hidden, "earlier entry/earlier entries"))))
	}
	for _, e := range shown {
		lines = append(lines, "")
		for _, line := range draw(e, width-2) {
			lines = append(lines, "  "+line)
		}
	}
	return lines
}
