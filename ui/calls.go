package ui

import (
	"fmt"

	"github.com/seed-e4e525a6/baton/ui/status"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/ui/pane"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// Session calls run in Cmds that capture the session value, never the
// model, so Update never waits on the engine.

// callFailedMsg reports a session call that failed; text is a prompt
// that could not be sent, given back to the input.
type callFailedMsg struct {
	err  error
	text string
}

// clearedMsg says the session started a new conversation.
type clearedMsg struct{}

// submit sends a prompt; the turn's own events follow on the channel.
func (m *Model) submit(text string) tea.Cmd {
	m.setBusy(true)
	s := m.session
	return tea.Batch(m.startClock(), func() tea.Msg {
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

// clearSession asks for a new conversation.
func (m *Model) clearSession() tea.Cmd {
	s := m.session
	return func() tea.Msg {
		if err := s.Clear(); err != nil {
			return callFailedMsg{err: fmt.Errorf("clear: %w", err)}
		}
		return clearedMsg{}
	}
}

// setModel switches the main agent's model for the next request.
func (m *Model) setModel(name string) tea.Cmd {
	if name != m.model {
		// The same history goes to the new model, so what it fills stays;
		// the window is the new model's.
		m.contextWindow = m.windowOf(name)
	}
	m.model = name
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

// cleared empties the transcript once the session agreed.
func (m *Model) cleared() {
	m.conv.reset()
	m.todos = nil
	m.status.Set(status.Info, "new conversation")
}

// stopAgent winds one child down: it reports what it has in one last
// step and its pane folds; stopping it again aborts it at once.
func (m *Model) stopAgent(p *pane.Pane) tea.Cmd {
	if p.State().Finished() {
		m.status.Set(status.Error, fmt.Sprintf("stop: %s already ended (%s)", paneName(p), p.State()))
		return nil
	}
	m.status.SetTransient(status.Warning, "winding down "+paneName(p)+": it reports what it has; stop again to abort", status.Child, p.ID())
	s, id := m.session, p.ID()
	return func() tea.Msg {
		if _, err := s.WindDownAgent(id); err != nil {
			return callFailedMsg{err: fmt.Errorf("stop %s: %w", id, err)}
		}
		return nil
	}
}

// stopCmd asks the session to stop a child, or every child for "all".
func stopCmd(s Session, id event.AgentID) tea.Cmd {
	return func() tea.Msg {
		if err := s.StopAgent(id); err != nil {
			return callFailedMsg{err: fmt.Errorf("stop %s: %w", id, err)}
		}
		return nil
	}
}

// sendToAgent delivers a message into a running child; the child's
// AgentMessage event shows it in its pane once delivered.
func (m *Model) sendToAgent(id event.AgentID, text string) tea.Cmd {
	m.status.SetTransient(status.Info, "message queued for "+termtext.Clean(string(id))+"; it reads it before its next step", status.Child, id)
	s := m.session
	return func() tea.Msg {
		if err := s.SendToAgent(id, text); err != nil {
			return callFailedMsg{err: fmt.Errorf("send to %s: %w", id, err)}
		}
		return nil
	}
}

// windowOf is a model's context size as the options know it, 0 when
// unknown.
func (m *Model) windowOf(model string) int64 {
	if m.opts.ContextWindowOf == nil {
		return 0
	}
	return max(m.opts.ContextWindowOf(model), 0)
}
