package ui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
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
// exactly one is waiting at any time.
func waitForEvent(ch <-chan event.Event) tea.Cmd {
	return func() tea.Msg {
		ev, ok := <-ch
		if !ok {
			return fromSession{ch: ch, msg: sessionEndedMsg{}}
		}
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
	return tea.Batch(append(cmds, m.wait, m.frame.later())...)
}

// route sends an event where it belongs. Approvals take the card
// whoever asks; a child's events (its approvals too) belong to its pane,
// the main agent's to the conversation.
func (m *Model) route(ev event.Event) tea.Cmd {
	ev = termtext.Event(ev) // the one place event text is cleaned
	if q, ok := ev.(event.ResultQueued); ok {
		m.resultQueued(q) // about a child that ended: its pane is a record
		return nil
	}
	if h, ok := ev.(event.ResultsHeld); ok {
		m.resultsHeld(h)
		return nil
	}
	var cmd tea.Cmd
	child := ev.EventMeta().Agent != event.MainAgent
	if child {
		cmd = m.routeChild(ev)
	}
	switch ev := ev.(type) {
	case event.ApprovalRequested:
		return tea.Batch(cmd, m.requestApproval(ev))
	case event.ApprovalResolved:
		return tea.Batch(cmd, m.dropApproval(ev.RequestID))
	}
	if child {
		return cmd
	}
	m.status.Update(ev) // first: a queued prompt sent as the turn ends starts the next
	switch ev := ev.(type) {
	case event.TurnStarted:
		m.setBusy(true)
		m.notify.turnStart = ev.Time
		cmd = m.startClock()
	case event.StepStarted:
		m.inRequest = true
	case event.MessageDone:
		m.inRequest = false
	case event.UsageReported:
		m.recordUsage(ev)
	case event.TurnEnded:
		cmd = m.turnEnded(ev)
	case event.TodosUpdated:
		m.setTodos(ev)
	case event.ModeChanged:
		cmd = m.modeUpdate(ev)
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
	meta := ev.EventMeta()
	p, created := m.agents.paneFor(meta)
	if p == nil {
		return nil
	}
	if created {
		m.conv.link(meta, p)
		p.SetSpinnerFrame(m.spin)
	}
	p.SetNow(m.now())
	p.Apply(ev)
	if e, ok := ev.(event.ReviewFinished); ok {
		m.reviewFinished(p, e)
		return nil
	}
	if _, ok := ev.(event.AgentFinished); ok && p.State().Finished() {
		m.conv.fold(p)
		m.childFinished(p)
		return nil
	}
	return m.startClock()
}

// recordUsage keeps the turn's running total and, for a model request,
// how full the context is.
func (m *Model) recordUsage(ev event.UsageReported) {
	m.turnUsage = ev.Total
	if m.inRequest {
		m.contextUsed = ev.Request.PromptTokens + ev.Request.CompletionTokens
	}
}

// turnEnded settles the turn's usage, drops the cards it left and sends
// the next queued message.
func (m *Model) turnEnded(ev event.TurnEnded) tea.Cmd {
	m.busy, m.inRequest = false, false
	m.pastUsage, m.turnUsage = m.pastUsage.Add(ev.Usage), event.Usage{}
	cmds := []tea.Cmd{m.dropAllApprovals(), m.turnNotify(ev)}
	if next, ok := m.input.Dequeue(); ok {
		cmds = append(cmds, m.submit(next))
	}
	return tea.Batch(cmds...)
}

// setTodos keeps the main agent's task list, cleaned once here.
func (m *Model) setTodos(ev event.TodosUpdated) {
	m.todos = todos.Clean(ev.Todos, termtext.Clean)
}
