package approval

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// armDelay is how long a card must sit on screen with no keystroke
// before it takes keys: typing that was under way when it appeared goes
// on into the input instead of answering it.
const armDelay = 400 * time.Millisecond

// ArmMsg arms card seq if no key was pressed since gen was counted.
type ArmMsg struct{ seq, gen int }

// Keystroke restarts an unarmed card's quiet period: the root calls it
// for every key.
func (m *Model) Keystroke() { m.gen++ }

// Arm starts the active card's quiet period, once per card; started
// says the card just became the active one (and its wait for the person
// began now).
func (m *Model) Arm() (cmd tea.Cmd, started bool) {
	if len(m.cards) == 0 {
		return nil, false
	}
	c := m.cards[0]
	if c.armed || c.arming {
		return nil, false
	}
	c.arming, c.shownAt = true, m.now
	return m.after(armDelay, ArmMsg{seq: c.seq, gen: m.gen}), true
}

// arm arms the active card when nothing was typed since the tick was
// set, or waits another quiet period when something was.
func (m *Model) arm(msg ArmMsg) tea.Cmd {
	if len(m.cards) == 0 || m.cards[0].seq != msg.seq || m.cards[0].armed {
		return nil
	}
	if msg.gen != m.gen {
		return m.after(armDelay, ArmMsg{seq: msg.seq, gen: m.gen})
	}
	m.cards[0].armed = true
	return nil
}

// Call says whether to call the person back to the active card, once:
// at once when away says the terminal is not focused, else once it has
// waited wait.
func (m *Model) Call(away bool, wait time.Duration) bool {
	if len(m.cards) == 0 {
		return false
	}
	c := m.cards[0]
	if c.called || c.shownAt.IsZero() || (!away && m.now.Sub(c.shownAt) < wait) {
		return false
	}
	c.called = true
	return true
}
