package ui

import (
	"strings"
	"testing"
)

// TestKeyBetweenFramesSeesThePanes starts children between two frames,
// then a key comes before the frame does: fitting measures every live
// pane, so the events alone fit nothing, but once the key is handled
// the agents area is fitted to the children, as the frame then draws it.
func TestKeyBetweenFramesSeesThePanes(t *testing.T) {
	d := newDriver(t, 100, 30)
	m := d.m
	_ = m.View() // drawn, as Bubble Tea draws after every message
	var batch eventsMsg
	for _, k := range []kid{explore, review, finder} {
		batch = append(batch, k.taskCall(), k.started())
		batch = append(batch, k.working()...)
	}
	model, _ := m.Update(batch) // the frame it schedules has not come yet
	m = model.(Model)
	if m.agents.Height() != 0 {
		t.Fatalf("the events fitted the panes before their frame (area %d)", m.agents.Height())
	}
	model, _ = m.Update(keyMsg("pgup"))
	m = model.(Model)
	area := m.agents.Height()
	if area == 0 {
		t.Fatal("a key between frames saw no agents area")
	}
	model, _ = m.Update(frameMsg{})
	m = model.(Model)
	if m.agents.Height() != area {
		t.Errorf("the frame fitted %d lines, the key saw %d", m.agents.Height(), area)
	}
	screen := stripped(m.View())
	for _, k := range []kid{explore, review, finder} {
		if !strings.Contains(screen, k.desc) {
			t.Errorf("the screen misses %q:\n%s", k.desc, screen)
		}
	}
}
