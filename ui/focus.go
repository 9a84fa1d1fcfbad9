package ui

import (
	"fmt"

	"github.com/seed-e4e525a6/baton/ui/status"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/ui/pane"

	"github.com/seed-e4e525a6/baton/engine/event"
	area "github.com/seed-e4e525a6/baton/ui/agents"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// focusedPane is the live pane that holds the keys, nil when the input
// holds them.
func (m *Model) focusedPane() *pane.Pane {
	p, ok := m.agents.byID[m.focus]
	if !ok || p.State().Finished() && !p.PendingReview() {
		return nil
	}
	return p
}

// setFocus gives the focus to a live child's pane, or to the input for
// "" or a child that ended (which takes keys once no layer holds them:
// see settle).
func (m *Model) setFocus(id event.AgentID) {
	if p, ok := m.agents.byID[id]; !ok || p.State().Finished() && !p.PendingReview() {
		id = ""
	}
	if old, ok := m.agents.byID[m.focus]; ok {
		old.Blur()
	}
	m.focus = id
	if p, ok := m.agents.byID[id]; ok {
		p.Focus()
	}
}

// focusInput gives the keys back to the input.
func (m *Model) focusInput() { m.setFocus("") }

// cycleFocus moves the focus by delta along input, first pane … last
// pane, and round again.
func (m *Model) cycleFocus(delta int) {
	live := append(m.agents.live(), m.agents.reviewable()...)
	if len(live) == 0 {
		m.status.Set(status.Info, "no sub-agent is running; tab moves between running ones")
		return
	}
	n := len(live) + 1
	next := ((focusIndex(live, m.focus)+1+delta)%n + n) % n
	if next == 0 {
		m.focusInput()
		return
	}
	m.setFocus(live[next-1].ID())
}

// paneKey handles a key while a pane has the focus.
func (m *Model) paneKey(p *pane.Pane, msg tea.KeyMsg) tea.Cmd {
	if msg.Paste || m.scrollKey(msg) {
		return nil
	}
	switch {
	case key.Matches(msg, m.keys.FocusNext):
		m.cycleFocus(1)
	case key.Matches(msg, m.keys.FocusPrev):
		m.cycleFocus(-1)
	case key.Matches(msg, m.keys.Transcript) && p.State().Finished():
		return m.openReview(p)
	case key.Matches(msg, m.keys.Transcript):
		m.openTranscript(p)
	case key.Matches(msg, m.keys.Stop):
		return stopChild(m.session, m.status, p)
	case key.Matches(msg, m.keys.Message):
		m.openMessage(p)
	case key.Matches(msg, m.keys.Background):
		return m.backgroundAgent(p)
	case key.Matches(msg, m.keys.Back):
		m.focusInput()
	case key.Matches(msg, m.keys.Help):
		m.help.ShowAll = !m.help.ShowAll
	}
	return nil
}

// childFinished settles the status that waited for the child and gives
// the keys of its pane, which just left the live area, to the input.
func (m *Model) childFinished(p *pane.Pane) {
	m.status.ChildEnded(p.ID(), m.agents.running(), paneName(p)+" "+p.State().String())
	if m.focus == p.ID() {
		m.focusInput() // never another pane: a second x would stop it
	}
}

// openMessage opens the line whose text goes into a running child.
func (m *Model) openMessage(p *pane.Pane) {
	if p.State() != pane.Running && p.State() != pane.WaitingForApproval {
		m.status.Set(status.Error, fmt.Sprintf("message: %s is %s; only a running sub-agent takes messages", paneName(p), p.State()))
		return
	}
	s, said, id := m.session, m.status, p.ID()
	m.layers.Push(area.NewMessage(paneName(p), m.keys.KeyMap, m.styles, m.status, func(text string) tea.Cmd { return sendTo(s, said, id, text) }))
}

// paneName names a child for the person: "#2 explore-2".
func paneName(p *pane.Pane) string {
	return fmt.Sprintf("#%d %s", p.Number(), termtext.Clean(string(p.ID())))
}
