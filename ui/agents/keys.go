package agents

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/ui/pane"
	"github.com/seed-e4e525a6/baton/ui/status"
)

// KeyMap is the keys of the agents area: focus moves between the input
// and the panes, the others act on the focused pane. The root's KeyMap
// embeds it, so every key still goes through one map.
type KeyMap struct {
	FocusNext  key.Binding
	FocusPrev  key.Binding
	Transcript key.Binding
	Stop       key.Binding
	Message    key.Binding
	Background key.Binding
	Back       key.Binding
}

// DefaultKeyMap is the area's standard keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		FocusNext:  key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "panes")),
		FocusPrev:  key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "back")),
		Transcript: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "transcript")),
		Stop:       key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "stop agent")),
		Message:    key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "message agent")),
		Background: key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "background")),
		Back:       key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
	}
}

// Update handles a key while a pane has the focus: move the focus, open
// the pane's transcript (or a folded one's review), stop it, message it,
// send it to the background, or go back to the input.
func (a *Area) Update(msg tea.KeyMsg) tea.Cmd {
	p := a.Focused()
	if p == nil || msg.Paste {
		return nil
	}
	k := a.cfg.Keys
	switch {
	case key.Matches(msg, k.FocusNext):
		a.Cycle(1)
	case key.Matches(msg, k.FocusPrev):
		a.Cycle(-1)
	case key.Matches(msg, k.Transcript) && !p.Live():
		return a.OpenReview(p)
	case key.Matches(msg, k.Transcript):
		a.openTranscript(p)
	case !a.guard.armed && (key.Matches(msg, k.Stop) || key.Matches(msg, k.Message) || key.Matches(msg, k.Background)):
		a.cfg.Status.SetTransient(status.Info, "the pane takes "+msg.String()+" once typing pauses", status.Key, "")
	case key.Matches(msg, k.Stop):
		return a.Stop(p)
	case key.Matches(msg, k.Message):
		a.openMessage(p)
	case key.Matches(msg, k.Background):
		return a.Background(p)
	case key.Matches(msg, k.Back):
		a.FocusInput()
	}
	return nil
}

// ShortHelp is the focused pane's keys.
func (a *Area) ShortHelp() []key.Binding {
	p := a.Focused()
	if p == nil {
		return nil
	}
	k := a.cfg.Keys
	if !p.Live() { // only a change pending review keeps a folded child in focus
		return []key.Binding{relabel(k.Transcript, "review"), relabel(k.FocusNext, "next"), relabel(k.Back, "input")}
	}
	keys := []key.Binding{k.Transcript}
	if a.guard.armed { // until then they cannot fire
		keys = append(keys, k.Stop)
		if p.State() == pane.Running || p.State() == pane.WaitingForApproval {
			keys = append(keys, k.Message)
		}
		if canBackground(p) {
			keys = append(keys, k.Background)
		}
	}
	return append(keys, relabel(k.FocusNext, "next"), relabel(k.Back, "input"))
}

// relabel is a key with the words it means in one state.
func relabel(b key.Binding, desc string) key.Binding {
	b.SetHelp(b.Help().Key, desc)
	return b
}
