package ui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// chooser is an open list the person picks from, under the conversation
// as a card is: /model's models, /resume's sessions.
type chooser interface {
	// Update takes a key; chosen is set when enter picks a row, done
	// when the list closes (chosen, or esc).
	Update(msg tea.KeyMsg) (chosen string, done bool)
	View(width, height int) []string
	HelpKeys() []key.Binding
}

// openPicker opens a list; picked acts on the row chosen. It is a
// method expression, not a method value: Bubble Tea copies the Model, so
// one bound now would change a stale copy.
func (m *Model) openPicker(c chooser, picked func(m *Model, id string) tea.Cmd) {
	m.picker, m.picked = c, picked
	m.overlay = overlayModel
	m.input.Blur()
}

// pickerKey gives a key to the open picker; a choice is acted on.
func (m *Model) pickerKey(msg tea.KeyMsg) tea.Cmd {
	chosen, done := m.picker.Update(msg)
	if !done {
		return nil
	}
	picked := m.picked
	m.picker, m.picked, m.overlay = nil, nil, overlayNone
	m.input.Focus()
	if chosen == "" {
		return nil
	}
	return picked(m, chosen)
}

// pickerView draws the picker under the conversation, as a card is.
func (m *Model) pickerView(height int) []string {
	return m.picker.View(m.width, cardRoom(height))
}

// pickerHelpKeys are the picker's keys for the footer.
func (m *Model) pickerHelpKeys() []key.Binding {
	return append(m.picker.HelpKeys(), m.keys.Quit)
}
