package ui

import (
	"runtime"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/agents"
	"github.com/seed-e4e525a6/baton/ui/status"
	"github.com/seed-e4e525a6/baton/ui/termtext"
	"github.com/seed-e4e525a6/baton/ui/todos"
)

// maxBatch bounds how many already-queued events one message carries, so
// a flood still yields frames now and then.
const maxBatch = 256

// eventsMsg is a burst of events, in order, applied in one Update so it
// costs one frame.
type eventsMsg []event.Event

// sessionEndedMsg says the event channel closed: the session is over.
type sessionEndedMsg struct{}

// fromSession is what a wait on a session's channel brought (an
// eventsMsg or a sessionEndedMsg) and the channel it came from: after
// /resume switched sessions, the wait still on the old one's channel
// brings its end, which must not end the UI.
type fromSession struct {
	ch  <-chan event.Event
	msg tea.Msg
}

// waitForEvent waits for the next event and takes whatever else is
// already queued behind it. Update re-arms it after every batch, so
// exactly one is waiting at any time. Before it takes the rest it lets
// what else is ready run: the other streams read on the same boundary
// (see llm.Gather) then join the batch rather than making one each.
func waitForEvent(ch <-chan event.Event) tea.Cmd {
	return func() tea.Msg {
		ev, ok := <-ch
		if !ok {
			return fromSession{ch: ch, msg: sessionEndedMsg{}}
		}
		runtime.Gosched()
		batch := eventsMsg{ev}
		for len(batch) < maxBatch {
			select {
			case ev, ok := <-ch:
				if !ok {
					return fromSession{ch: ch, msg: batch} // the next wait reports the end
				}
				batch = append(batch, ev)
			default:
				return fromSession{ch: ch, msg: batch}
			}
		}
		return fromSession{ch: ch, msg: batch}
	}
}

// handleEvents applies a batch and waits for the next; the screen shows
// it at the next frame, together with whatever else arrives by then.
func (m *Model) handleEvents(batch eventsMsg) tea.Cmd {
	cmds := make([]tea.Cmd, 0, len(batch)+1)
	for _, ev := range batch {
		cmds = append(cmds, m.route(ev))
	}
	return tea.Batch(append(cmds, m.wait, m.frame.later(m.clock.now()))...)
}

// route sends an event where it belongs. Approvals take the card
// whoever asks; a child's events (its approvals too) belong to its pane,
// the main agent's to the conversation.
func (m *Model) route(ev event.Event) tea.Cmd {
	ev = termtext.Event(ev) // the one place event text is cleaned
	switch ev := ev.(type) {
	case event.ResultQueued: // about a child that ended: its pane is a record
		m.resultQueued(ev)
		return nil
	case event.ResultsHeld: // this prompt's results woke the main agent as often as allowed
		m.status.Set(status.Info, ev.Text())
		return nil
	}
	var cmd tea.Cmd
	child := ev.EventMeta().Agent != event.MainAgent
	if child {
		cmd = m.routeChild(ev)
	}
	switch ev := ev.(type) {
	case event.ApprovalRequested:
		m.requestApproval(ev)
		return cmd
	case event.ApprovalResolved:
		m.approvals.Drop(ev.RequestID) // answered elsewhere: a remembered choice, a cancelled agent
		return cmd
	}
	if child {
		return cmd
	}
	m.status.Update(ev) // first: a queued prompt sent as the turn ends starts the next
	m.header.Update(ev)
	switch ev := ev.(type) {
	case event.TurnStarted:
		m.setBusy(true)
		m.notify.turnStart = ev.Time
		cmd = m.clock.start()
	case event.TurnEnded:
		cmd = m.turnEnded(ev)
	case event.TodosUpdated:
		m.todos = todos.Clean(ev.Todos, termtext.Clean) // cleaned once, here
	case event.ModeChanged:
		cmd = m.mode.Update(ev)
	case event.CompactionStarted:
		cmd = m.compactionStarted(ev)
	case event.Compacted:
		cmd = m.compacted(ev)
	}
	m.conv.Apply(ev)
	return cmd
}

// routeChild applies a child's event to its pane, making the pane on the
// child's first event; a child that ends folds into the conversation.
func (m *Model) routeChild(ev event.Event) tea.Cmd {
	p, created := m.agents.Apply(ev, m.clock.now(), m.clock.frame)
	if p == nil {
		return nil
	}
	if created {
		m.conv.Link(ev.EventMeta(), p)
	}
	if e, ok := ev.(event.ReviewFinished); ok {
		m.conv.Refresh(p) // its fold line says what the review did
		m.agents.Reviewed(p, e)
		return nil
	}
	if _, ok := ev.(event.AgentFinished); ok && !p.Live() {
		m.conv.Fold(p)
		m.agents.Ended(p)
		return nil
	}
	return m.clock.start()
}

// resultQueued tells the person when a background result waits for
// their next prompt rather than waking the main agent.
func (m *Model) resultQueued(ev event.ResultQueued) {
	if !ev.Waits {
		return
	}
	name := termtext.Clean(string(ev.Agent))
	if p, ok := m.agents.Pane(ev.Agent); ok {
		name = agents.Name(p)
	}
	m.status.Set(status.Info, "the result of "+name+" waits for your next prompt")
}

// turnEnded settles the turn's usage, drops the cards it left and sends
// the next queued message.
func (m *Model) turnEnded(ev event.TurnEnded) tea.Cmd {
	m.busy = false
	cmds := []tea.Cmd{m.approvals.DropAll(), m.notify.turnEnded(ev)}
	if next, ok := m.input.Dequeue(); ok {
		cmds = append(cmds, m.submit(next))
	}
	return tea.Batch(cmds...)
}
