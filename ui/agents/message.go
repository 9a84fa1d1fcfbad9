// Package agents is the agents area: the live panes of the session's
// children and what a person does with one (a message, a transcript).
package agents

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/themes"
	"github.com/seed-e4e525a6/baton/ui/input"
	"github.com/seed-e4e525a6/baton/ui/overlay"
	"github.com/seed-e4e525a6/baton/ui/status"
)

// Message is the line whose text goes into a running child, drawn in the
// input's place: enter sends it, esc drops it. Cards that interrupt it
// leave it open underneath, its text kept.
type Message struct {
	line   *input.Line
	keys   input.KeyMap
	styles *themes.Styles
	status *status.Model
	send   func(text string) tea.Cmd
	width  int
}

// NewMessage opens a message to the child named name; send delivers it.
func NewMessage(name string, keys input.KeyMap, styles *themes.Styles, said *status.Model, send func(text string) tea.Cmd) *Message {
	line := input.NewLine("message to "+name, "sent before its next step")
	line.SetStyles(styles)
	line.Open("")
	return &Message{line: line, keys: keys, styles: styles, status: said, send: send}
}

// Update edits the message: enter sends it, esc drops it.
func (m *Message) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case overlay.Restyle:
		m.line.SetStyles(m.styles)
		return nil
	case tea.KeyMsg:
		switch {
		case key.Matches(msg, m.keys.Confirm) && !msg.Paste:
			text := strings.TrimSpace(m.line.Value())
			if text == "" {
				m.status.Set(status.Error, "message: type something to send, or esc")
				return nil
			}
			return tea.Batch(overlay.Hide(m), m.send(text))
		case key.Matches(msg, m.keys.Cancel):
			return overlay.Hide(m)
		}
	}
	return m.line.Update(msg)
}

// View is the line in its frame.
func (m *Message) View() string {
	return m.styles.Input.FocusedFrame.Width(max(m.width-2, 1)).Render(m.line.View())
}

// SetSize fits the line in the frame at width.
func (m *Message) SetSize(width, _ int) {
	m.width = width
	m.line.SetSize(max(width-4, 1))
}

// Place is the input's.
func (m *Message) Place() overlay.Place { return overlay.Input }

// Route gives the line every key: it is text.
func (m *Message) Route(tea.KeyMsg) overlay.Route { return overlay.Take }

// ShortHelp is enter and esc.
func (m *Message) ShortHelp() []key.Binding {
	confirm := m.keys.Confirm
	confirm.SetHelp(confirm.Help().Key, "send")
	return []key.Binding{confirm, m.keys.Cancel}
}

// FullHelp is ShortHelp.
func (m *Message) FullHelp() []overlay.KeyGroup { return nil }
