package ui

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// armDelay is how long a card must sit on screen with no keystroke
// before it takes keys: typing that was under way when it appeared goes
// on into the input instead of answering it.
const armDelay = 400 * time.Millisecond

// cardArmMsg arms card seq if no key was pressed since gen was counted.
type cardArmMsg struct{ seq, gen int }

// tick is the program's clock for after.
func tick(d time.Duration, msg tea.Msg) tea.Cmd {
	return tea.Tick(d, func(time.Time) tea.Msg { return msg })
}

// armActive starts the active card's quiet period, once per card; the
// card also starts its wait for a notification.
func (m *Model) armActive() tea.Cmd {
	if len(m.approvals) == 0 {
		return nil
	}
	card := m.approvals[0]
	if card.armed || card.arming {
		return nil
	}
	card.arming = true
	m.input.Focus() // keys typed meanwhile go on into the input
	return tea.Batch(m.after(armDelay, cardArmMsg{seq: card.seq, gen: m.keyGen}), m.cardWaiting(card))
}

// armCard arms the active card when nothing was typed since the tick was
// set, or waits another quiet period when something was.
func (m *Model) armCard(msg cardArmMsg) tea.Cmd {
	if len(m.approvals) == 0 || m.approvals[0].seq != msg.seq || m.approvals[0].armed {
		return nil
	}
	if msg.gen != m.keyGen {
		return m.after(armDelay, cardArmMsg{seq: msg.seq, gen: m.keyGen})
	}
	m.approvals[0].armed = true
	m.input.Blur()
	return nil
}

// cardHoldsKeys says whether the active card takes this key: only once
// armed, and never pasted text.
func (m *Model) cardHoldsKeys(msg tea.KeyMsg) bool {
	return m.overlay != overlayApproval || (len(m.approvals) > 0 && m.approvals[0].armed && !msg.Paste)
}

// typeAhead gives a key that reached an unarmed card to the input, so
// nothing typed is lost and nothing typed answers.
func (m *Model) typeAhead(msg tea.KeyMsg) tea.Cmd {
	m.input.Focus()
	cmd := m.inputKey(msg)
	if len(m.approvals) > 0 && m.approvals[0].armed {
		m.input.Blur()
	}
	return cmd
}
