package ui

import (
	"fmt"
	"strings"

	"github.com/seed-e4e525a6/baton/ui/status"

	tea "github.com/charmbracelet/bubbletea"
)

// Session calls run in Cmds that capture the session value, never the
// model, so Update never waits on the engine.

// callFailedMsg reports a session call that failed; text is a prompt
// that could not be sent, given back to the input.
type callFailedMsg struct {
	err  error
	text string
}

// submit sends a prompt, or runs a !command in the shell; the turn's own
// events follow on the channel.
func (m *Model) submit(text string) tea.Cmd {
	m.setBusy(true)
	s := m.session
	return tea.Batch(m.clock.start(), func() tea.Msg {
		if command, ok := strings.CutPrefix(text, "!"); ok {
			if err := s.RunShell(command); err != nil {
				return callFailedMsg{err: fmt.Errorf("!command: %w", err), text: text}
			}
			return nil
		}
		if err := s.Submit(text); err != nil {
			return callFailedMsg{err: fmt.Errorf("send: %w", err), text: text}
		}
		return nil
	})
}

// interrupt cancels the running turn; TurnEnded follows.
func (m *Model) interrupt() tea.Cmd {
	m.status.SetTransient(status.Warning, "interrupting…", status.Turn, "")
	s := m.session
	return func() tea.Msg {
		s.Interrupt()
		return nil
	}
}

// setModel switches the main agent's model for the next request.
func (m *Model) setModel(name string) tea.Cmd {
	m.header.SetModel(name)
	m.status.Set(status.Info, "model: "+name)
	s := m.session
	return func() tea.Msg {
		s.SetModel(name)
		return nil
	}
}

// callFailed shows the error; a prompt that was not sent goes back into
// an empty input so nothing typed is lost.
func (m *Model) callFailed(msg callFailedMsg) {
	m.status.Set(status.Error, msg.err.Error())
	if msg.text != "" {
		m.setBusy(false)
		m.input.Restore(msg.text)
		m.layout()
	}
}
