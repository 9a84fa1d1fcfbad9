package ui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/llm"
)

// maxBatch bounds how many already-queued events one message carries, so
// a flood still yields frames now and then.
const maxBatch = 256

// eventsMsg is a burst of events, in order, applied in one Update so it
// costs one frame.
type eventsMsg []engine.Event

// sessionEndedMsg says the event channel closed: the session is over.
type sessionEndedMsg struct{}

// waitForEvent waits for the next event and takes whatever else is
// already queued behind it. Update re-arms it after every batch, so
// exactly one is waiting at any time.
func waitForEvent(ch <-chan engine.Event) tea.Cmd {
	return func() tea.Msg {
		ev, ok := <-ch
		if !ok {
			return sessionEndedMsg{}
		}
		batch := eventsMsg{ev}
		for len(batch) < maxBatch {
			select {
			case ev, ok := <-ch:
				if !ok {
					return batch // the next wait reports the end
				}
				batch = append(batch, ev)
			default:
				return batch
			}
		}
		return batch
	}
}

// handleEvents applies a batch and waits for the next.
func (m *Model) handleEvents(batch eventsMsg) tea.Cmd {
	cmds := make([]tea.Cmd, 0, len(batch)+1)
	for _, ev := range batch {
		cmds = append(cmds, m.route(ev))
	}
	return tea.Batch(append(cmds, m.wait)...)
}

// route sends an event where it belongs. Approvals take the card
// whoever asks; a child's other events belong to its pane, and until
// panes exist they are left aside.
func (m *Model) route(ev engine.Event) tea.Cmd {
	switch ev := ev.(type) {
	case engine.ApprovalRequested:
		m.requestApproval(ev)
		return nil
	case engine.ApprovalResolved:
		m.dropApproval(ev.RequestID)
		return nil
	}
	if ev.EventMeta().Agent != engine.MainAgent {
		return nil
	}
	var cmd tea.Cmd
	switch ev := ev.(type) {
	case engine.TurnStarted:
		m.busy = true
		cmd = m.startClock()
	case engine.StepStarted:
		m.step, m.inRequest = ev, true
	case engine.MessageDone:
		m.inRequest = false
	case engine.UsageReported:
		m.recordUsage(ev)
	case engine.Notice:
		m.setStatus(statusWarning, sanitize(ev.Text))
	case engine.TurnEnded:
		cmd = m.turnEnded(ev)
	}
	m.conv.Apply(ev)
	return cmd
}

// recordUsage keeps the turn's running total and, for a model request,
// how full the context is.
func (m *Model) recordUsage(ev engine.UsageReported) {
	m.turnUsage = ev.Total
	if m.inRequest {
		m.contextUsed = ev.Request.PromptTokens + ev.Request.CompletionTokens
	}
}

// turnEnded settles the turn's usage, drops the cards it left and sends
// the next queued message.
func (m *Model) turnEnded(ev engine.TurnEnded) tea.Cmd {
	m.busy, m.inRequest, m.step = false, false, engine.StepStarted{}
	m.pastUsage, m.turnUsage = m.pastUsage.Add(ev.Usage), llm.Usage{}
	if ev.Status == engine.StatusInterrupted {
		m.setStatus(statusWarning, "interrupted")
	}
	cmds := []tea.Cmd{m.dropAllApprovals()}
	if next, ok := m.input.dequeue(); ok {
		cmds = append(cmds, m.submit(next))
	}
	return tea.Batch(cmds...)
}

// requestApproval queues a card; the first one takes the keys from the
// input at once.
func (m *Model) requestApproval(ev engine.ApprovalRequested) {
	if ev.Request == nil {
		return
	}
	m.approvals = append(m.approvals, &approvalCard{req: ev.Request, meta: ev.Meta})
	if m.overlay == overlayNone {
		m.overlay = overlayApproval
		m.input.blur()
	}
}

// dropApproval removes a card answered elsewhere (a remembered choice, a
// cancelled agent).
func (m *Model) dropApproval(id string) {
	for i, card := range m.approvals {
		if card.req.ID == id {
			m.approvals = append(m.approvals[:i:i], m.approvals[i+1:]...)
			m.refocus()
			return
		}
	}
}

// dropAllApprovals clears the cards a finished turn left; their agents
// have stopped, and denying them is harmless since the first answer wins.
func (m *Model) dropAllApprovals() tea.Cmd {
	cmds := make([]tea.Cmd, 0, len(m.approvals))
	for _, card := range m.approvals {
		req := card.req
		cmds = append(cmds, func() tea.Msg {
			req.Answer(engine.Answer{Decision: engine.Deny, Reason: "the turn ended"})
			return nil
		})
	}
	m.approvals = nil
	m.refocus()
	return tea.Batch(cmds...)
}

// refocus gives the keys back to the input when no card is left.
func (m *Model) refocus() {
	if len(m.approvals) == 0 {
		m.overlay = overlayNone
		m.input.focus()
	}
}
