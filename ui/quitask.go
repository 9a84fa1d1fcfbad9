package ui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/ui/overlay"
)

// quitOrAsk quits, or, while sub-agents still run, asks first: quitting
// stops them.
func (m *Model) quitOrAsk() tea.Cmd {
	running := len(m.agents.Live())
	if running == 0 {
		return tea.Quit
	}
	m.quitArmed = false
	m.layers.Push(overlay.NewQuitAsk(running, 0, m.styles, func(bool) tea.Cmd { return tea.Quit }))
	m.fitBody()
	return nil
}

// quitAsked is the open quit question, if it is on top.
func (m *Model) quitAsked() (*overlay.QuitAsk, bool) {
	q, ok := m.layers.Top().(*overlay.QuitAsk)
	return q, ok
}
