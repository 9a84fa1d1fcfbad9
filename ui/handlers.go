package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine"
)

// wheelLines is how far one mouse wheel notch scrolls.
const wheelLines = 3

// handleKey routes a key: quit always works, then the active overlay
// takes the key, then the global keys, then the input.
func (m *Model) handleKey(msg tea.KeyMsg) tea.Cmd {
	if key.Matches(msg, m.keys.Quit) {
		return m.quit()
	}
	m.quitArmed = false
	if m.overlay == overlayApproval {
		return m.cardKey(msg)
	}
	page := max(m.conversationHeight()-1, 1)
	switch {
	case key.Matches(msg, m.keys.PageUp):
		m.conv.scrollUp(page, m.width, m.conversationHeight())
	case key.Matches(msg, m.keys.PageDown):
		m.conv.scrollDown(page, m.width, m.conversationHeight())
	case key.Matches(msg, m.keys.Top):
		m.conv.toTop(m.width, m.conversationHeight())
	case key.Matches(msg, m.keys.Bottom):
		m.conv.toBottom()
	case key.Matches(msg, m.keys.Expand):
		m.conv.toggleExpanded()
	case key.Matches(msg, m.keys.Help) && m.input.empty():
		m.help.ShowAll = !m.help.ShowAll
	case key.Matches(msg, m.keys.Dismiss) && len(m.input.popup()) > 0:
		m.input.dismiss()
	case key.Matches(msg, m.keys.Interrupt):
		return m.escape()
	default:
		return m.inputKey(msg)
	}
	return nil
}

// cardKey answers the active card. Pasted text never answers.
func (m *Model) cardKey(msg tea.KeyMsg) tea.Cmd {
	if msg.Paste {
		return nil
	}
	card, height := m.approvals[0], m.conversationHeight()
	switch {
	case key.Matches(msg, m.keys.Allow):
		return m.answerCard(engine.Answer{Decision: engine.Allow})
	case key.Matches(msg, m.keys.AllowAlways):
		return m.answerCard(engine.Answer{Decision: engine.AllowAlways})
	case key.Matches(msg, m.keys.Deny):
		return m.answerCard(engine.Answer{Decision: engine.Deny})
	case key.Matches(msg, m.keys.CardUp):
		card.scrollBy(&m.conv.rc, -1, m.width, height)
	case key.Matches(msg, m.keys.CardDown):
		card.scrollBy(&m.conv.rc, 1, m.width, height)
	case key.Matches(msg, m.keys.PageUp):
		card.scrollBy(&m.conv.rc, -height/2, m.width, height)
	case key.Matches(msg, m.keys.PageDown):
		card.scrollBy(&m.conv.rc, height/2, m.width, height)
	case key.Matches(msg, m.keys.Help):
		m.help.ShowAll = !m.help.ShowAll
	}
	return nil
}

// inputKey handles a key meant for the prompt box: the popup, sending,
// history, or editing.
func (m *Model) inputKey(msg tea.KeyMsg) tea.Cmd {
	in := m.input
	_, popup := in.selected()
	switch {
	case popup && key.Matches(msg, m.keys.Complete):
		in.choose()
	case popup && key.Matches(msg, m.keys.HistoryPrev):
		in.movePick(-1)
	case popup && key.Matches(msg, m.keys.HistoryNext):
		in.movePick(1)
	case key.Matches(msg, m.keys.Send) && !msg.Paste:
		return m.send()
	case key.Matches(msg, m.keys.HistoryPrev) && in.walking():
		in.older()
	case key.Matches(msg, m.keys.HistoryNext) && in.walking():
		in.newer()
	default:
		return in.update(msg)
	}
	return nil
}

// send acts on enter: it completes a command from the popup, runs a
// command, queues a message while a turn runs, or starts a turn.
func (m *Model) send() tea.Cmd {
	if c, ok := m.input.selected(); ok && m.input.value() != c.text {
		m.input.choose()
		if !c.complete {
			return nil
		}
	}
	text := m.input.take()
	switch {
	case text == "":
		return nil
	case strings.HasPrefix(text, "/"):
		return m.runCommand(text)
	case m.busy:
		m.input.enqueue(text)
		m.setStatus(statusInfo, "queued; it is sent when the turn ends")
		return nil
	}
	m.conv.toBottom()
	return m.submit(text)
}

// escape interrupts a running turn, or else closes the full help.
func (m *Model) escape() tea.Cmd {
	if m.busy {
		return m.interrupt()
	}
	m.help.ShowAll = false
	return nil
}

// quit quits on a second ctrl+c; the first interrupts a running turn and
// asks to press again.
func (m *Model) quit() tea.Cmd {
	if m.quitArmed {
		return tea.Quit
	}
	m.quitArmed = true
	if m.busy {
		cmd := m.interrupt()
		m.setStatus(statusWarning, "interrupting · press ctrl+c again to quit")
		return cmd
	}
	m.setStatus(statusWarning, "press ctrl+c again to quit")
	return nil
}

// handleMouse scrolls the conversation with the wheel.
func (m *Model) handleMouse(msg tea.MouseMsg) {
	if msg.Action != tea.MouseActionPress || m.overlay != overlayNone {
		return
	}
	switch msg.Button {
	case tea.MouseButtonWheelUp:
		m.conv.scrollUp(wheelLines, m.width, m.conversationHeight())
	case tea.MouseButtonWheelDown:
		m.conv.scrollDown(wheelLines, m.width, m.conversationHeight())
	}
}
