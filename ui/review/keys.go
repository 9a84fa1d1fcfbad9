package review

import (
	"github.com/charmbracelet/bubbles/key"

	"github.com/seed-e4e525a6/baton/ui/overlay"
)

// KeyMap is every key the review answers to; its help is derived from
// what can fire now.
type KeyMap struct {
	Up, Down       key.Binding
	PageUp, Down2  key.Binding
	Apply, Skip    key.Binding
	ApplyAll       key.Binding
	DiscardAll     key.Binding
	ConfirmDiscard key.Binding
	KeepChange     key.Binding
	Close          key.Binding
	KeepMine       key.Binding
	TakeChild      key.Binding
	LeaveMarkers   key.Binding
	CancelConflict key.Binding
	// VerifyOutput shows or hides the verify command's output.
	VerifyOutput key.Binding
	// AllPending opens the view across every change waiting for review.
	AllPending key.Binding
}

// DefaultKeyMap is the review's standard key set.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up:             key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "previous")),
		Down:           key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "next")),
		PageUp:         key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page up")),
		Down2:          key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "page down")),
		Apply:          key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "apply file/hunk")),
		Skip:           key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "skip file/hunk")),
		ApplyAll:       key.NewBinding(key.WithKeys("A"), key.WithHelp("A", "apply all")),
		DiscardAll:     key.NewBinding(key.WithKeys("D"), key.WithHelp("D", "discard all…")),
		ConfirmDiscard: key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "discard everything undecided")),
		KeepChange:     key.NewBinding(key.WithKeys("n", "esc"), key.WithHelp("any other key", "keep it")),
		Close:          key.NewBinding(key.WithKeys("esc", "q"), key.WithHelp("esc", "close (decide later)")),
		KeepMine:       key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "keep mine")),
		TakeChild:      key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "take the child's")),
		LeaveMarkers:   key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "leave conflict markers")),
		CancelConflict: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "decide later")),
		VerifyOutput:   key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "output")),
		AllPending:     key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "merge all pending")),
	}
}

// ShortHelp is the keys that act now: the conflict's while one is shown.
func (m *Model) ShortHelp() []key.Binding {
	k := m.keys
	if m.conflict != nil {
		return []key.Binding{k.KeepMine, k.TakeChild, k.LeaveMarkers, k.CancelConflict}
	}
	if m.confirming {
		return []key.Binding{k.ConfirmDiscard, k.KeepChange}
	}
	keys := []key.Binding{k.Apply, k.Skip, k.ApplyAll, k.DiscardAll}
	if m.review.Verify != nil {
		keys = append(keys, k.VerifyOutput)
	}
	if m.across != nil {
		keys = append(keys, k.AllPending)
	}
	return append(keys, k.Up, k.Down, k.Close)
}

// FullHelp groups every key that acts now.
func (m *Model) FullHelp() []overlay.KeyGroup {
	return []overlay.KeyGroup{{Where: "review", Keys: append(m.ShortHelp(), m.keys.PageUp, m.keys.Down2)}}
}

// helpKeys is the review's keys as its own help line draws them.
type helpKeys struct{ m *Model }

func (h helpKeys) ShortHelp() []key.Binding { return h.m.ShortHelp() }

func (h helpKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{h.m.ShortHelp(), {h.m.keys.PageUp, h.m.keys.Down2}}
}
