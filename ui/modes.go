package ui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/ui/status"
)

// cycleMode moves to the next mode at once; the session follows.
func (m *Model) cycleMode() tea.Cmd {
	cmd := m.mode.Cycle()
	m.header.SetAgentMode(m.mode.Mode())
	return cmd
}

// modeUpdate hands the mode component a switch's answer or the session's
// ModeChanged, and says on the status line what the mode now means.
func (m *Model) modeUpdate(msg tea.Msg) tea.Cmd {
	cmd, said, err := m.mode.Update(msg)
	m.header.SetAgentMode(m.mode.Mode())
	switch {
	case err != nil:
		m.status.Set(status.Error, err.Error())
	case said != "":
		m.status.SetTransient(status.Info, said, status.Key, "")
	}
	return cmd
}
