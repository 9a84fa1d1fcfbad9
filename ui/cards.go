package ui

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/status"
)

// tick is the program's clock for the cards' typing guard.
func tick(d time.Duration, msg tea.Msg) tea.Cmd {
	return tea.Tick(d, func(time.Time) tea.Msg { return msg })
}

// cardActive says whether the cards hold the screen's overlay.
func (m *Model) cardActive() bool { return m.overlay == overlayApproval }

// requestApproval queues a card; the first one is drawn at once and
// takes keys once it is armed. A transcript or message box open at that
// moment waits behind the cards, so no question is ever hidden by
// another view.
func (m *Model) requestApproval(ev event.ApprovalRequested) tea.Cmd {
	number := 0
	if p, ok := m.agents.byID[ev.Agent]; ok {
		number = p.Number()
	}
	if !m.approvals.Push(ev.Meta, ev.Request, number) {
		return nil
	}
	m.status.Settle(status.Card)
	if !m.cardActive() {
		if m.overlay != overlayNone {
			m.behind = m.overlay
		}
		m.overlay = overlayApproval
		m.message.Blur()
	}
	return m.armActive()
}

// dropApproval removes a card answered elsewhere (a remembered choice, a
// cancelled agent).
func (m *Model) dropApproval(id string) tea.Cmd {
	if !m.approvals.Drop(id) {
		return nil
	}
	return m.refocus()
}

// dropAllApprovals clears the cards a finished turn left.
func (m *Model) dropAllApprovals() tea.Cmd {
	return tea.Batch(m.approvals.DropAll(), m.refocus())
}

// cardUpdate gives the cards a key or their guard's tick, and does what
// only the root can: say the answer, stop the turn, move the keys.
func (m *Model) cardUpdate(msg tea.Msg) tea.Cmd {
	cmd, out := m.approvals.Update(msg)
	if out.Armed {
		m.input.Blur()
	}
	if out.Said != "" && out.Failed {
		m.status.Set(status.Error, out.Said)
	} else if out.Said != "" {
		m.status.SetTransient(status.Info, out.Said, status.Card, "")
	}
	// The turn, or the one child, is cancelled before the denial is
	// delivered, so the agent never takes the denial as a cue for its
	// next request.
	switch {
	case out.Stop:
		cmd = stopThenDeny(m.interrupt(), cmd)
	case out.StopChild != "":
		if p, ok := m.agents.byID[out.StopChild]; ok {
			m.status.SetTransient(status.Warning, "stopping "+paneName(p)+"…", status.Child, p.ID())
		}
		cmd = stopThenDeny(stopCmd(m.session, out.StopChild), cmd)
	}
	if out.Answered {
		cmd = tea.Batch(cmd, m.refocus())
	}
	return cmd
}

// stopThenDeny runs stop, then delivers the denial deny carries; what
// either reports (a stop that failed) reaches Update.
func stopThenDeny(stop, deny tea.Cmd) tea.Cmd {
	return func() tea.Msg {
		failed, denied := stop(), deny()
		if failed == nil {
			return denied
		}
		return tea.BatchMsg{func() tea.Msg { return failed }, func() tea.Msg { return denied }}
	}
}

// armActive starts the active card's quiet period, once per card: keys
// typed meanwhile go on into the input. The person is called at once if
// the terminal is not focused.
func (m *Model) armActive() tea.Cmd {
	m.approvals.SetNow(m.now())
	cmd, started := m.approvals.Arm()
	if !started {
		return nil
	}
	m.input.Focus()
	if m.approvals.Call(!m.notify.focused, notifyAfter) {
		cmd = tea.Batch(cmd, m.notify.call(titleWaiting))
	}
	return cmd
}

// refocus settles who holds the keys once the card queue changed: the
// next card (armed afresh), else the view the cards interrupted, else
// the focused pane or the input.
func (m *Model) refocus() tea.Cmd {
	if m.approvals.Len() > 0 {
		return m.armActive()
	}
	if m.cardActive() {
		m.overlay, m.behind = m.behind, overlayNone
	}
	switch m.overlay {
	case overlayMessage:
		m.message.Focus()
	case overlayTranscript:
	default:
		m.setFocus(m.focus)
	}
	return m.notify.clear()
}

// typeAhead gives a key that reached an unarmed card to the input, so
// nothing typed is lost and nothing typed answers.
func (m *Model) typeAhead(msg tea.KeyMsg) tea.Cmd {
	m.input.Focus()
	cmd := m.inputKey(msg)
	if m.approvals.Armed() {
		m.input.Blur()
	}
	return cmd
}
