package ui

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/overlay"
	"github.com/seed-e4e525a6/baton/ui/status"
)

// tick is the program's clock for the cards' typing guard.
func tick(d time.Duration, msg tea.Msg) tea.Cmd {
	return tea.Tick(d, func(time.Time) tea.Msg { return msg })
}

// cardActive says whether the cards are the layer on top.
func (m *Model) cardActive() bool { return m.layers.Top() == overlay.Layer(m.approvals) }

// requestApproval queues a card; the cards go over whatever is open
// (see settle), so no question is ever hidden by another view.
func (m *Model) requestApproval(ev event.ApprovalRequested) {
	number := 0
	if p, ok := m.agents.Pane(ev.Agent); ok {
		number = p.Number()
	}
	if m.approvals.Push(ev.Meta, ev.Request, number) {
		m.status.Settle(status.Card)
	}
}

// settle runs after every message: the cards are on top while any
// waits, and the active one starts its quiet period; once none waits
// they leave the stack, and what they covered has the keys again. The
// input has the keys when nothing else holds them, and while a card is
// not yet armed, so typing under way goes on into it.
func (m *Model) settle() tea.Cmd {
	var cmd tea.Cmd
	switch {
	case m.approvals.Len() > 0:
		if !m.cardActive() {
			m.layers.Push(m.approvals)
		}
		cmd = m.armActive()
	case m.layers.Remove(m.approvals):
		cmd = m.notify.clear()
	}
	top := m.layers.Top()
	want := top == nil && m.agents.Focused() == nil || m.cardActive() && !m.approvals.Armed()
	switch {
	case want && !m.input.Focused():
		m.input.Focus()
	case !want && m.input.Focused():
		m.input.Blur()
	}
	return cmd
}

// armActive starts the active card's quiet period, once per card: keys
// typed meanwhile go on into the input. The person is called at once if
// the terminal is not focused.
func (m *Model) armActive() tea.Cmd {
	m.approvals.SetNow(m.clock.now())
	cmd, started := m.approvals.Arm()
	if !started {
		return nil
	}
	return tea.Batch(cmd, m.notify.card(m.approvals, m.clock.now(), !m.notify.focused))
}
