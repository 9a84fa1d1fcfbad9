package ui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/ui/overlay"
)

// quitOrAsk quits, or, while sub-agents still run, asks first: quitting
// stops them.
func (m *Model) quitOrAsk() tea.Cmd {
	running := len(m.agents.live())
	if running == 0 {
		return tea.Quit
	}
	m.quitArmed = false
	m.quitAsk = overlay.NewQuitAsk(running, m.styles)
	m.quitAsk.SetSize(m.width)
	m.overlay = overlayQuit
	m.input.Blur()
	return nil
}

// quitAskKey gives a key to the open quit question.
func (m *Model) quitAskKey(msg tea.KeyMsg) tea.Cmd {
	quit, done := m.quitAsk.Update(msg)
	if !done {
		return nil
	}
	m.quitAsk, m.overlay = nil, overlayNone
	m.input.Focus()
	if quit {
		return tea.Quit
	}
	return nil
}
