package review

import (
	"github.com/charmbracelet/bubbles/key"

	"github.com/seed-e4e525a6/baton/ui/overlay"
)

// AcrossKeyMap is every key the view across pending changes answers to.
type AcrossKeyMap struct {
	Up, Down key.Binding
	// Choose takes the change under the cursor in or out of the merge.
	Choose key.Binding
	// Apply applies the merge; on one not verified, a second Apply.
	Apply key.Binding
	// ConfirmUnverified is Apply pressed again; KeepTree any other key.
	ConfirmUnverified key.Binding
	KeepTree          key.Binding
	Output            key.Binding
	Close             key.Binding
}

// DefaultAcrossKeyMap is the view's standard key set.
func DefaultAcrossKeyMap() AcrossKeyMap {
	return AcrossKeyMap{
		Up:                key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "previous")),
		Down:              key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "next")),
		Choose:            key.NewBinding(key.WithKeys(" "), key.WithHelp("space", "choose")),
		Apply:             key.NewBinding(key.WithKeys("A"), key.WithHelp("A", "apply merge")),
		ConfirmUnverified: key.NewBinding(key.WithKeys("A"), key.WithHelp("A", "apply it unverified")),
		KeepTree:          key.NewBinding(key.WithKeys("esc"), key.WithHelp("any other key", "keep your tree")),
		Output:            key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "output")),
		Close:             key.NewBinding(key.WithKeys("esc", "q"), key.WithHelp("esc", "close")),
	}
}

// ShortHelp is the keys that act now.
func (m *Across) ShortHelp() []key.Binding {
	k := m.keys
	if m.confirming {
		return []key.Binding{k.ConfirmUnverified, k.KeepTree}
	}
	keys := []key.Binding{k.Apply, k.Choose}
	if m.fan.Verify != nil {
		keys = append(keys, k.Output)
	}
	return append(keys, k.Up, k.Down, k.Close)
}

// FullHelp groups every key that acts now.
func (m *Across) FullHelp() []overlay.KeyGroup {
	return []overlay.KeyGroup{{Where: "merge of pending changes", Keys: m.ShortHelp()}}
}

// acrossHelp is the view's keys as its own help line draws them.
type acrossHelp struct{ m *Across }

func (h acrossHelp) ShortHelp() []key.Binding  { return h.m.ShortHelp() }
func (h acrossHelp) FullHelp() [][]key.Binding { return [][]key.Binding{h.m.ShortHelp()} }
