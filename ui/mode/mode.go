// Package mode is the session's agent mode as the person sees and
// switches it: shift+tab cycles normal, auto-accept edits and plan (as in
// Claude Code), the header and footer show the mode the session reports,
// and accepting a plan on its card switches it from the engine's side.
package mode

import (
	"fmt"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/status"
)

// Setter switches the session's mode; it is called from a Cmd.
type Setter func(event.AgentMode) error

// SetMsg reports a switch the session made, or refused; the root hands
// it to Update.
type SetMsg struct {
	mode event.AgentMode
	err  error
}

// Display shows the mode (the header).
type Display interface{ SetAgentMode(event.AgentMode) }

// Model is the mode shown and the one the person asked for. Switches go
// to the session one at a time, so a fast run of shift+tab ends in the
// mode the person stopped at, whichever order Cmds run in. It keeps the
// display in step and says on the status line what a new mode means.
type Model struct {
	set     Setter
	display Display
	said    *status.Model
	// shown is the session's mode as last reported; want is where the
	// person's presses lead; busy says a switch is on its way.
	shown, want event.AgentMode
	busy        bool
}

// New starts in normal mode, as every session does; display shows the
// mode, said tells the person what it means.
func New(set Setter, display Display, said *status.Model) *Model {
	return &Model{set: set, display: display, said: said, shown: event.AgentModeNormal, want: event.AgentModeNormal}
}

// Mode is the mode to show: where the person's presses lead, which the
// session takes in turn.
func (m *Model) Mode() event.AgentMode { return m.want }

// Cycle moves to the next mode at once; the session follows.
func (m *Model) Cycle() tea.Cmd {
	m.want = m.want.Next()
	m.display.SetAgentMode(m.want)
	return m.send()
}

// send hands the wanted mode to the session unless a switch is on its
// way; that one's answer sends the next.
func (m *Model) send() tea.Cmd {
	if m.busy || m.want == m.shown || m.set == nil {
		return nil
	}
	m.busy = true
	set, want := m.set, m.want
	return func() tea.Msg { return SetMsg{mode: want, err: set(want)} }
}

// Update takes the session's answer to a switch and its ModeChanged
// events, shows the mode and says what changed. It returns the next
// switch, if the person moved on meanwhile.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	cmd, said, err := m.update(msg)
	m.display.SetAgentMode(m.want)
	switch {
	case err != nil:
		m.said.Set(status.Error, err.Error())
	case said != "":
		m.said.SetTransient(status.Info, said, status.Key, "")
	}
	return cmd
}

// update follows msg; it returns the next switch and what to tell the
// person (empty when nothing changed).
func (m *Model) update(msg tea.Msg) (tea.Cmd, string, error) {
	switch msg := msg.(type) {
	case SetMsg:
		m.busy = false
		if msg.err != nil {
			m.want = m.shown
			return nil, "", fmt.Errorf("mode: %w", msg.err)
		}
		m.shown = msg.mode
		if cmd := m.send(); cmd != nil {
			return cmd, "", nil
		}
		return nil, Words(m.shown), nil
	case event.ModeChanged:
		m.shown = msg.Mode
		if !m.busy {
			m.want = msg.Mode
		}
		if msg.PlanAccepted {
			return nil, "plan accepted · " + Words(msg.Mode), nil
		}
	}
	return nil, "", nil
}

// Words says what a mode means, for the status line.
func Words(mode event.AgentMode) string {
	switch mode {
	case event.AgentModeAutoAccept:
		return "auto-accept edits: file edits run without asking; commands and sub-agents still ask"
	case event.AgentModePlan:
		return "plan mode: only read-only tools run until you accept the plan"
	}
	return "normal mode: edits, commands and sub-agents ask first"
}

// Binding is the key that cycles the modes, labelled with the mode now
// (shift+tab in Claude Code).
func (m *Model) Binding(k key.Binding) key.Binding {
	desc := "mode"
	if m.want != event.AgentModeNormal {
		desc = m.want.Label()
	}
	k.SetHelp(k.Help().Key, desc)
	return k
}
