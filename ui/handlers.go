package ui

import (
	"strings"

	"github.com/seed-e4e525a6/baton/ui/overlay"
	"github.com/seed-e4e525a6/baton/ui/status"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// handleKey routes a key: quit always works, then the layer on top
// takes the key (or lets ? show the keys, or a card not yet armed lets
// it be typed into the input), then ctrl+r's search, the focused pane,
// the global keys, and the input.
func (m *Model) handleKey(msg tea.KeyMsg) tea.Cmd {
	m.approvals.Keystroke() // any keystroke restarts an unarmed card's quiet period
	m.agents.Keystroke()    // and a focused pane's
	msg = asText(msg)
	if key.Matches(msg, m.keys.Quit) {
		return m.quit()
	}
	m.quitArmed = false
	m.status.Settle(status.Key)
	if top := m.layers.Top(); top != nil {
		switch top.Route(msg) {
		case overlay.Help:
			m.help.ShowAll = !m.help.ShowAll
			return nil
		case overlay.TypeAhead:
			m.input.Focus() // nothing typed is lost, nothing typed answers
			return m.inputKey(msg)
		}
		return top.Update(msg)
	}
	if m.input.Searching() {
		return m.input.Update(msg)
	}
	if m.agents.Focused() != nil {
		return m.paneKey(msg)
	}
	popup := m.input.PopupOpen()
	switch {
	case m.conv.Update(msg):
	case key.Matches(msg, m.keys.Panes.FocusNext) && !popup && !m.input.Empty():
		// The focus never leaves unsent text: a key meant for it could
		// act on a child.
		m.status.SetTransient(status.Info, "send or clear the prompt to move to the panes", status.Key, "")
	case key.Matches(msg, m.keys.Panes.FocusNext) && !popup:
		m.agents.Cycle(1)
	case key.Matches(msg, m.keys.Mode):
		return m.mode.Cycle()
	case key.Matches(msg, m.keys.Help) && m.input.Empty():
		m.help.ShowAll = !m.help.ShowAll
	case key.Matches(msg, m.keys.Interrupt) && !popup:
		return m.escape()
	default:
		return m.inputKey(msg)
	}
	return nil
}

// asText marks a run of letters read in one go as pasted text. Bubble Tea
// reports keys typed faster than they are read (a fast typist, a slow
// link) as one message whose String is the word itself, so "enter",
// "esc", "up" or "tab" typed in a sentence would match the key of that
// name: send the prompt, interrupt the turn, recall history. Pasted text
// matches no key binding, and no card takes it.
func asText(msg tea.KeyMsg) tea.KeyMsg {
	if msg.Type == tea.KeyRunes && len(msg.Runes) > 1 {
		msg.Paste = true
	}
	return msg
}

// paneKey gives a key to the agents area while a pane has the focus;
// the conversation still scrolls, and ? still shows the keys.
func (m *Model) paneKey(msg tea.KeyMsg) tea.Cmd {
	switch {
	case msg.Paste || m.conv.Update(msg):
		return nil
	case key.Matches(msg, m.keys.Help):
		m.help.ShowAll = !m.help.ShowAll
		return nil
	}
	return m.agents.Update(msg)
}

// inputKey gives a key to the prompt box: enter, unless pasted, sends;
// ctrl+r opens the search in the box's place.
func (m *Model) inputKey(msg tea.KeyMsg) tea.Cmd {
	if key.Matches(msg, m.keys.Send) && !msg.Paste && !m.input.Searching() {
		return m.send()
	}
	return m.input.Update(msg)
}

// send acts on enter: it completes a partly typed command from the
// popup, runs a command typed in full, queues a message while a turn
// runs, or starts a turn.
func (m *Model) send() tea.Cmd {
	text := m.input.Accept()
	remember := remember(m.opts.RememberPrompt, text)
	switch {
	case text == "":
		return nil
	case strings.HasPrefix(text, "/"):
		return tea.Batch(remember, m.commands.Run(text, m.busy, m.header.Model()))
	}
	return tea.Batch(remember, m.prompt(text, ""))
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
// asks to press again. With text in the box, ctrl+c first clears it, so
// a half-typed prompt is dropped, not the session.
func (m *Model) quit() tea.Cmd {
	if q, ok := m.layers.Top().(overlay.Quitter); ok {
		return q.Quit() // the quit question: ctrl+c again means it
	}
	if m.quitArmed {
		return m.quitOrAsk()
	}
	if m.layers.Len() == 0 && m.agents.Focused() == nil && !m.input.Empty() {
		m.input.Set("")
		m.status.SetTransient(status.Info, "input cleared · ctrl+c on an empty box quits", status.Key, "")
		return nil
	}
	m.quitArmed = true
	if m.busy {
		cmd := m.interrupt()
		m.status.SetTransient(status.Warning, "interrupting · press ctrl+c again to quit", status.Key, "")
		return cmd
	}
	m.status.SetTransient(status.Warning, "press ctrl+c again to quit", status.Key, "")
	return nil
}

// handleMouse scrolls the conversation with the wheel; a layer on top
// (an open transcript) takes the mouse instead.
func (m *Model) handleMouse(msg tea.MouseMsg) tea.Cmd {
	if top := m.layers.Top(); top != nil {
		return top.Update(msg)
	}
	m.conv.Update(msg)
	return nil
}
