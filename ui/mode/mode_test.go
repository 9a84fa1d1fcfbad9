package mode

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/status"
)

// Presses faster than the session answers go to it one switch at a time
// and end in the mode the person stopped at; a refused switch shows the
// mode the session kept.
func TestSwitchesReachTheSessionInOrder(t *testing.T) {
	var set []event.AgentMode
	m := newMode(func(mode event.AgentMode) error {
		set = append(set, mode)
		return nil
	})
	first := m.Cycle()
	if m.Cycle() != nil {
		t.Fatal("a second switch went out before the first was answered")
	}
	if m.Mode() != event.AgentModePlan {
		t.Errorf("shown %s after two presses, want plan", m.Mode())
	}
	next, said, err := m.update(first())
	if next == nil || said != "" || err != nil {
		t.Fatalf("after the first answer: next %v, said %q, err %v", next != nil, said, err)
	}
	if _, said, _ := m.update(next()); said != Words(event.AgentModePlan) {
		t.Errorf("said %q", said)
	}
	if want := []event.AgentMode{event.AgentModeAutoAccept, event.AgentModePlan}; !reflect.DeepEqual(set, want) {
		t.Errorf("the session got %v, want %v", set, want)
	}

	refusing := newMode(func(event.AgentMode) error { return errors.New("the session has ended") })
	cmd := refusing.Cycle()
	if _, _, err := refusing.update(cmd()); err == nil || refusing.Mode() != event.AgentModeNormal {
		t.Errorf("a refused switch: err %v, shown %s", err, refusing.Mode())
	}
}

// A plan accepted on its card switches the mode from the session's side.
func TestModeChangedFromTheSession(t *testing.T) {
	m := newMode(func(event.AgentMode) error { return nil })
	_, said, _ := m.update(event.ModeChanged{Mode: event.AgentModeAutoAccept, PlanAccepted: true})
	if m.Mode() != event.AgentModeAutoAccept || said == "" {
		t.Errorf("after the plan was accepted: %s, said %q", m.Mode(), said)
	}
}

// newMode is a mode with a display and status line nobody reads.
func newMode(set Setter) *Model { return New(set, ignored{}, status.New(nil, nil)) }

type ignored struct{}

func (ignored) SetAgentMode(event.AgentMode) {}

// shown records what the display was told.
type shown struct{ modes []event.AgentMode }

func (s *shown) SetAgentMode(m event.AgentMode) { s.modes = append(s.modes, m) }

// Update keeps the display on the mode and says on the status line what
// the new mode means, or why the session refused it; the key's help
// names the mode away from normal.
func TestUpdateShowsAndSays(t *testing.T) {
	display, said := &shown{}, status.New(nil, nil)
	m := New(func(event.AgentMode) error { return nil }, display, said)
	cmd := m.Cycle()
	if len(display.modes) != 1 || display.modes[0] != event.AgentModeAutoAccept {
		t.Fatalf("a press did not show the mode at once: %v", display.modes)
	}
	m.Update(cmd())
	if said.Text() != Words(event.AgentModeAutoAccept) || said.Level() != status.Info {
		t.Errorf("said %q", said.Text())
	}
	k := key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "mode"))
	if got := m.Binding(k).Help().Desc; got != "auto-accept edits" {
		t.Errorf("help %q", got)
	}
	m.Update(event.ModeChanged{Mode: event.AgentModeNormal})
	if got := m.Binding(k).Help().Desc; got != "mode" || display.modes[len(display.modes)-1] != event.AgentModeNormal {
		t.Errorf("back to normal: help %q, shown %v", got, display.modes)
	}

	refusing := New(func(event.AgentMode) error { return errors.New("the session has ended") }, display, said)
	refusing.Update(refusing.Cycle()())
	if said.Level() != status.Error || !strings.Contains(said.Text(), "the session has ended") || display.modes[len(display.modes)-1] != event.AgentModeNormal {
		t.Errorf("a refusal: %q, shown %v", said.Text(), display.modes)
	}
	if Words(event.AgentModePlan) == Words(event.AgentModeNormal) {
		t.Error("plan and normal mode read alike")
	}
}
