package ui

import (
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/status"
)

// replay draws a resumed conversation before any live event: its events
// take the same routes as live ones, so the messages, tool calls and
// folded child summaries reappear as they were. Nothing replayed is
// running, so the Cmds the routes return are dropped and the clock stays
// still; a turn the crash left open ends as interrupted.
func (m *Model) replay(history []event.Event) {
	if len(history) == 0 {
		return
	}
	said := *m.status
	for _, ev := range history {
		if _, ok := ev.(event.ConversationCleared); ok {
			m.conv.Reset() // /clear was used: the model forgot what came before
			m.todos = nil
			continue
		}
		m.route(ev)
		if u, ok := ev.(event.UsageReported); ok && u.Agent == event.MainAgent {
			m.header.Resumed(u)
		}
		if n, ok := ev.(event.Notice); ok && n.Agent == event.MainAgent {
			said = *m.status // what the session said last is still worth reading
		}
	}
	if m.busy {
		m.route(event.TurnEnded{Meta: event.Meta{Agent: event.MainAgent}, Status: event.StatusInterrupted})
	}
	m.clock.stop()
	*m.status = said
	m.status.SetWorking(m.busy)
	if m.status.Text() == "" {
		m.status.Set(status.Info, "resumed: the conversation so far is above")
	}
}
