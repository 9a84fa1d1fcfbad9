package ui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/ui/overlay"
)

// quitOrAsk quits, or, while sub-agents still run, asks first: quitting
// stops them, unless those that can outlive baton are detached.
func (m *Model) quitOrAsk() tea.Cmd {
	live := m.agents.Live()
	if len(live) == 0 {
		return tea.Quit
	}
	detachable := 0
	for _, p := range live {
		if p.Detachable() {
			detachable++
		}
	}
	m.quitArmed = false
	s := m.session
	m.layers.Push(overlay.NewQuitAsk(len(live), detachable, m.styles, func(detach bool) tea.Cmd {
		if !detach {
			return tea.Quit
		}
		return func() tea.Msg {
			s.Detach() // before the session closes, which stops what runs
			return tea.QuitMsg{}
		}
	}))
	m.fitBody()
	return nil
}
