package agents

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// A focused pane's x, s and b act on its child only once the pane has had
// the focus for the quiet period with no keystroke: a key pressed before
// does nothing to the child and starts the wait over, and a new focus
// starts it again. Moving the focus is never held.
func TestPaneKeysArmAfterAQuietFocus(t *testing.T) {
	a, s, said, _ := newArea()
	var ticks []ArmMsg
	var delays []time.Duration
	a.SetAfter(func(d time.Duration, msg tea.Msg) tea.Cmd {
		delays, ticks = append(delays, d), append(ticks, msg.(ArmMsg))
		return nil
	})
	// pass lets the clock's pending ticks arrive.
	pass := func() {
		pending := ticks
		ticks = nil
		for _, msg := range pending {
			a.Quiet(msg)
		}
	}
	x := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("x")}
	one := start(a, 1, "Explore")
	two := start(a, 2, "Plan")

	a.Focus(one.ID())
	a.Arm()
	if len(delays) != 1 || delays[0] != 400*time.Millisecond {
		t.Fatalf("quiet period %v, want 400ms", delays)
	}
	a.Keystroke()
	a.Update(x)
	if len(s.calls) != 0 || a.Armed() || !strings.Contains(said.Text(), "once typing pauses") {
		t.Fatalf("x before the quiet period: calls %v, armed %v, said %q", s.calls, a.Armed(), said.Text())
	}
	if keys := a.ShortHelp(); len(keys) != 3 {
		t.Errorf("an unarmed pane offers %d keys; only enter, tab and esc can fire", len(keys))
	}
	pass() // the tick set before the keystroke waits again
	if a.Armed() || len(ticks) != 1 {
		t.Fatalf("a keystroke in the quiet period did not restart it: armed %v", a.Armed())
	}
	pass()
	if !a.Armed() {
		t.Fatal("a quiet focus did not arm the pane's keys")
	}
	run(a.Update(x))
	if len(s.calls) != 1 || s.calls[0] != "wind down explore-1" {
		t.Fatalf("armed x: %v", s.calls)
	}

	a.Keystroke()
	a.Update(tea.KeyMsg{Type: tea.KeyTab}) // moving on is never held
	if a.Focused() != two || a.Armed() {
		t.Fatalf("tab: focus %v, armed %v", a.Focused(), a.Armed())
	}
	a.Arm()
	a.Focus(one.ID()) // the focus moved before two's tick came
	a.Arm()
	pass()
	if a.Focused() != one || !a.Armed() || len(ticks) != 0 {
		t.Fatalf("a tick of an earlier focus counted: focus %v, armed %v", a.Focused(), a.Armed())
	}
}

// The first stop winds the child down and says a second aborts; the
// second says the child was aborted.
func TestSecondStopSaysAborted(t *testing.T) {
	a, _, said, _ := newArea()
	p := start(a, 1, "Explore")
	focusQuietly(a, p.ID())
	x := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("x")}
	if msgs := run(a.Update(x)); len(msgs) != 1 || msgs[0] != nil || !strings.Contains(said.Text(), "stop again to abort") {
		t.Fatalf("first x: %v, said %q", msgs, said.Text())
	}
	if msgs := run(a.Update(x)); len(msgs) != 1 || !strings.Contains(fmt.Sprint(msgs[0]), "aborted #1 explore-1 at once") {
		t.Fatalf("second x said %v", msgs)
	}
}
