package ui

import (
	"fmt"

	"github.com/seed-e4e525a6/baton/ui/status"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/pane"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// Background children: b on a pane lets the main agent's task call go on
// without the child, the header counts those still running, and their
// results reach the main agent later (a wake turn opens with "[#3 done]").

// canBackground says whether b can send the pane's child to the
// background: a child of the main agent, approved, still running and
// not there already.
func canBackground(p *pane.Pane) bool {
	switch p.State() {
	case pane.Queued, pane.Running, pane.WaitingForApproval:
		return p.Meta().Parent == event.MainAgent && !p.Background()
	}
	return false
}

// backgroundAgent sends the focused child to the background.
func (m *Model) backgroundAgent(p *pane.Pane) tea.Cmd {
	switch {
	case p.Background():
		m.status.Set(status.Info, paneName(p)+" already runs in the background")
		return nil
	case p.Meta().Parent != event.MainAgent:
		m.status.Set(status.Error, "background: only the main agent's sub-agents can run in the background")
		return nil
	case !canBackground(p):
		m.status.Set(status.Error, fmt.Sprintf("background: %s is %s", paneName(p), p.State()))
		return nil
	}
	m.status.Set(status.Info, paneName(p)+" goes on in the background; its result reaches the main agent when it ends")
	s, id := m.session, p.ID()
	return func() tea.Msg {
		if err := s.Background(id); err != nil {
			return callFailedMsg{err: err}
		}
		return nil
	}
}

// continueAgent asks a finished child more; the follow-up's own card-less
// pane and its result follow as events.
func (m *Model) continueAgent(p *pane.Pane, text string) tea.Cmd {
	m.status.Set(status.Info, "continuing "+paneName(p)+" in the background; its answer reaches the main agent")
	s, id := m.session, p.ID()
	return func() tea.Msg {
		if err := s.ContinueAgent(id, text); err != nil {
			return callFailedMsg{err: err}
		}
		return nil
	}
}

// inBackground counts the children running in the background.
func (a *agents) inBackground() int {
	n := 0
	for _, p := range a.all {
		if p.Background() && !p.State().Finished() {
			n++
		}
	}
	return n
}

// resultQueued tells the person when a background result waits for
// their next prompt rather than waking the main agent.
func (m *Model) resultQueued(ev event.ResultQueued) {
	if !ev.Waits {
		return
	}
	name := termtext.Clean(string(ev.Agent))
	if p, ok := m.agents.byID[ev.Agent]; ok {
		name = paneName(p)
	}
	m.status.Set(status.Info, "the result of "+name+" waits for your next prompt")
}

// resultsHeld tells the person that background results wait for their
// next prompt because those of this prompt already woke the main agent
// as often as allowed.
func (m *Model) resultsHeld(ev event.ResultsHeld) {
	m.status.Set(status.Info, ev.Text())
}
