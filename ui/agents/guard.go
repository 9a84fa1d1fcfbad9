package agents

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// The keys that act on a focused pane's child (stop, message,
// background) get the cards' guard: they arm only once the pane has had
// the focus for armDelay with no keystroke, so a key typed for the input
// just as the focus moved never stops a child. Moving the focus, the
// transcript and going back are never held.

// armDelay is the quiet period, the same as a card's.
const armDelay = 400 * time.Millisecond

// ArmMsg arms the focused pane's keys if the focus has not moved
// (focus) and no key was pressed (gen) since it was set.
type ArmMsg struct{ focus, gen int }

// guard is the focused pane's arming.
type guard struct {
	// focus counts focus changes, gen keystrokes.
	focus, gen    int
	armed, arming bool
}

// Keystroke restarts the quiet period: the root calls it for every key.
func (a *Area) Keystroke() { a.guard.gen++ }

// SetAfter replaces the guard's clock: tests drive it by hand.
func (a *Area) SetAfter(after func(time.Duration, tea.Msg) tea.Cmd) { a.cfg.After = after }

// refocused starts the guard over for a new focus.
func (a *Area) refocused() {
	a.guard.focus++
	a.guard.armed, a.guard.arming = false, false
}

// Arm starts the focused pane's quiet period, once per focus; the root
// calls it after every message.
func (a *Area) Arm() tea.Cmd {
	g := &a.guard
	if a.Focused() == nil || g.armed || g.arming {
		return nil
	}
	g.arming = true
	return a.cfg.After(armDelay, ArmMsg{focus: g.focus, gen: g.gen})
}

// Armed says whether the focused pane's keys act on its child.
func (a *Area) Armed() bool { return a.Focused() != nil && a.guard.armed }

// Quiet arms the pane's keys when nothing was typed since msg was set,
// or waits another quiet period when something was; msg of an earlier
// focus is dropped.
func (a *Area) Quiet(msg ArmMsg) tea.Cmd {
	g := &a.guard
	if msg.focus != g.focus || g.armed {
		return nil
	}
	if msg.gen != g.gen {
		return a.cfg.After(armDelay, ArmMsg{focus: msg.focus, gen: g.gen})
	}
	g.armed = true
	return nil
}
