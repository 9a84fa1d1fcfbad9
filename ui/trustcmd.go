package ui

import (
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/ui/status"
)

// cmdTrust is /trust: the workspace goes on the person's trust list, as
// `baton trust` records it, and the conversation says what that means.
func (m *Model) cmdTrust(arg string) tea.Cmd {
	switch {
	case arg != "":
		m.status.Set(status.Error, "trust: /trust takes no argument; it trusts this folder (baton trust DIR trusts another)")
		return nil
	case m.opts.Trust == nil:
		m.status.Set(status.Error, "trust: there is no trust list to record it in (no state folder)")
		return nil
	}
	trust := m.opts.Trust
	return func() tea.Msg {
		said, err := trust()
		if err != nil {
			return callFailedMsg{err: fmt.Errorf("trust: %w", err)}
		}
		return infoMsg{title: "/trust", text: said}
	}
}
