package input

import "github.com/charmbracelet/bubbles/key"

// KeyMap is the keys of the prompt box. The root's KeyMap embeds it, so
// every key still goes through one map and help is derived from it.
type KeyMap struct {
	Send        key.Binding
	Newline     key.Binding
	HistoryPrev key.Binding
	HistoryNext key.Binding
	Complete    key.Binding
	Dismiss     key.Binding
	Search      key.Binding // ctrl+r: search the prompt history

	// Keys of the one-line boxes, the prompt editor and the search.
	Confirm key.Binding
	Cancel  key.Binding
}

// DefaultKeyMap is the prompt box's standard keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Send:        key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "send")),
		Newline:     key.NewBinding(key.WithKeys("shift+enter", "ctrl+j", "alt+enter"), key.WithHelp("ctrl+j", "newline")),
		HistoryPrev: key.NewBinding(key.WithKeys("up"), key.WithHelp("↑", "history")),
		HistoryNext: key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "newer prompt")),
		Complete:    key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "complete")),
		Dismiss:     key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close")),
		Search:      key.NewBinding(key.WithKeys("ctrl+r"), key.WithHelp("ctrl+r", "search history")),

		Confirm: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "confirm")),
		Cancel:  key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
	}
}

// ShortHelp is the box's keys that can fire now: the popup's while it is
// open, else sending and the history.
func (m *Model) ShortHelp() []key.Binding {
	k := m.keys
	if m.search != nil {
		return []key.Binding{relabel(k.Confirm, "use"), relabel(k.Search, "older match"), k.Cancel}
	}
	if m.PopupOpen() {
		return []key.Binding{k.Complete, k.Send, k.Dismiss}
	}
	if m.Empty() {
		return []key.Binding{k.Send, k.HistoryPrev}
	}
	return []key.Binding{k.Send}
}

// FullHelp is every key of the box, as /help lists them.
func (m *Model) FullHelp() []key.Binding {
	k := m.keys
	return []key.Binding{k.Send, k.Newline, k.HistoryPrev, k.HistoryNext, k.Search, k.Complete, k.Dismiss}
}

// relabel is a key with the words it means in one state.
func relabel(b key.Binding, desc string) key.Binding {
	b.SetHelp(b.Help().Key, desc)
	return b
}
