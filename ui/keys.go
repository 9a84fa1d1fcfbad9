package ui

import (
	"github.com/charmbracelet/bubbles/key"

	"github.com/seed-e4e525a6/baton/ui/agents"
	"github.com/seed-e4e525a6/baton/ui/approval"
	"github.com/seed-e4e525a6/baton/ui/conversation"
	"github.com/seed-e4e525a6/baton/ui/input"
)

// KeyMap is every key the UI answers to. All key handling goes through it,
// and the help footer is derived from it, so what help shows is what
// works.
type KeyMap struct {
	// The prompt box's keys (Send, Newline, HistoryPrev, HistoryNext,
	// Search, Complete, Dismiss) and the one-line boxes' (Confirm, Cancel)
	// live with the box.
	input.KeyMap
	// The cards' answers (Allow … CardDown) live with the cards, the
	// panes' (focus, transcript, stop …) with the agents area.
	Cards approval.KeyMap
	Panes agents.KeyMap
	// Scroll moves through the conversation and expands its output.
	Scroll conversation.KeyMap

	Interrupt key.Binding
	Quit      key.Binding
	// Suspend puts baton aside for the shell until fg brings it back.
	Suspend key.Binding
	Help    key.Binding
	// Mode cycles normal, auto-accept edits and plan from the input; on
	// a pane shift+tab still moves back (Panes.FocusPrev).
	Mode key.Binding
}

// DefaultKeyMap is baton's standard key set.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		KeyMap: input.DefaultKeyMap(),
		Cards:  approval.DefaultKeyMap(),
		Panes:  agents.DefaultKeyMap(),
		Scroll: conversation.DefaultKeyMap(),

		Interrupt: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "interrupt")),
		Quit:      key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit")),
		Suspend:   key.NewBinding(key.WithKeys("ctrl+z"), key.WithHelp("ctrl+z", "suspend (fg to come back)")),
		Help:      key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "more keys")),
		Mode:      key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "mode")),
	}
}
