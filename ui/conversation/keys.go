package conversation

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// KeyMap is the conversation's keys: scrolling, and showing tool output
// and reasoning in full.
type KeyMap struct {
	PageUp   key.Binding
	PageDown key.Binding
	Top      key.Binding
	Bottom   key.Binding
	Expand   key.Binding
}

// DefaultKeyMap is the conversation's standard keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		PageUp:   key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "scroll up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "scroll down")),
		Top:      key.NewBinding(key.WithKeys("home"), key.WithHelp("home", "top")),
		Bottom:   key.NewBinding(key.WithKeys("end"), key.WithHelp("end", "bottom")),
		Expand:   key.NewBinding(key.WithKeys("ctrl+o"), key.WithHelp("ctrl+o", "expand")),
	}
}

// wheelLines is how far one notch of the mouse wheel scrolls.
const wheelLines = 3

// SetSize sets the room the conversation scrolls in: the width it is
// drawn at and the height of its view when nothing covers it.
func (c *Model) SetSize(width, height int) { c.width, c.height = width, height }

// Update scrolls for the conversation's keys and the mouse wheel, and
// expands or folds output for ctrl+o; it says whether msg was one of
// those.
func (c *Model) Update(msg tea.Msg) bool {
	switch msg := msg.(type) {
	case tea.KeyMsg:
		return c.key(msg)
	case tea.MouseMsg:
		if msg.Action != tea.MouseActionPress {
			return false
		}
		switch msg.Button {
		case tea.MouseButtonWheelUp:
			c.scrollUp(wheelLines, c.width, c.height)
		case tea.MouseButtonWheelDown:
			c.scrollDown(wheelLines, c.width, c.height)
		default:
			return false
		}
		return true
	}
	return false
}

// key answers one of the conversation's keys.
func (c *Model) key(msg tea.KeyMsg) bool {
	page := max(c.height-1, 1)
	switch {
	case key.Matches(msg, c.keys.PageUp):
		c.scrollUp(page, c.width, c.height)
	case key.Matches(msg, c.keys.PageDown):
		c.scrollDown(page, c.width, c.height)
	case key.Matches(msg, c.keys.Top):
		c.toTop(c.width, c.height)
	case key.Matches(msg, c.keys.Bottom):
		c.ToBottom()
	case key.Matches(msg, c.keys.Expand):
		c.ToggleExpanded()
	default:
		return false
	}
	return true
}
