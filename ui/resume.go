package ui

import (
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/ui/status"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// /resume (ui/command) switches the running session to another of this
// folder's without quitting: cmd opens it (Options.Resume) and the root
// starts over on it here, its conversation replayed, with this run's
// prompt history, theme and size.

// resumedMsg carries the session switched to, and how to close the one
// left.
type resumedMsg struct {
	s        Session
	closeOld func()
}

// resumeCmd is the Cmd the /resume command runs for a session id: cmd's
// resume, its answer brought back to the root. Nil when sessions are not
// recorded.
func resumeCmd(resume func(id string) (Session, func(), error)) func(id string) tea.Cmd {
	if resume == nil {
		return nil
	}
	return func(id string) tea.Cmd {
		return func() tea.Msg {
			s, closeOld, err := resume(id)
			if err != nil {
				return status.Said{Level: status.Error, Text: termtext.Clean(fmt.Sprintf("resume: %v", err))}
			}
			return resumedMsg{s: s, closeOld: closeOld}
		}
	}
}

// resumed starts the UI over on the session switched to. The session
// left is closed only now: the wait still on its channel then brings an
// end the new Model knows is not its own.
func (m *Model) resumed(msg resumedMsg) tea.Cmd {
	opts := m.opts
	opts.Notices = nil // said once, at start
	next := New(msg.s, opts)
	next.applyTheme(m.styles.Palette)
	next.input.SetHistory(promptHistory(m.input.History(), msg.s.History()))
	next.resize(m.width, m.height)
	next.status.Set(status.Info, "resumed session "+termtext.Clean(msg.s.ID()))
	closeOld := msg.closeOld
	*m = next
	return tea.Batch(next.Init(), func() tea.Msg {
		if closeOld != nil {
			closeOld()
		}
		return nil
	})
}
