package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// busyScreen fills the UI with every kind of block, a long unbroken line
// and wide characters among them.
func busyScreen(t *testing.T, d *driver) {
	t.Helper()
	scenarios["tools"](t, d)
	d.emit(
		event.MessageDone{Meta: mainMeta, Text: "A table:\n\n| a | b |\n|---|---|\n| " + strings.Repeat("x", 300) + " | 漢字漢字 |\n"},
		event.ErrorOccurred{Meta: mainMeta, Message: strings.Repeat("reason ", 60)},
	)
	d.typeText(strings.Repeat("long prompt ", 30))
}

func TestResizeNeverOverflows(t *testing.T) {
	d := newDriver(t, 60, 20)
	busyScreen(t, d)
	sizes := [][2]int{{60, 20}, {80, 24}, {120, 40}, {250, 70}, {120, 40}, {80, 24}, {60, 20}, {20, 6}, {1, 1}, {60, 20}}
	for _, withCard := range []bool{false, true} {
		if withCard {
			askTool(t, d, "p1", mainMeta)
		}
		for _, size := range sizes {
			t.Run(fmt.Sprintf("%dx%d card=%v", size[0], size[1], withCard), func(t *testing.T) {
				d.send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
				d.checkFits()
			})
		}
	}
}

func TestFullHelpFits(t *testing.T) {
	d := newDriver(t, 60, 20)
	d.keys("?")
	for _, size := range [][2]int{{60, 20}, {40, 12}, {250, 70}} {
		d.send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		d.checkFits()
	}
}

func TestScrollKeepsPlaceWhileStreaming(t *testing.T) {
	d := newDriver(t, 80, 24)
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "count"})
	for i := range 60 {
		d.emit(event.TextDelta{Meta: mainMeta, Text: fmt.Sprintf("line %d\n", i)})
	}
	if !strings.Contains(d.screen(), "line 59") {
		t.Fatalf("the bottom is not followed:\n%s", d.screen())
	}
	d.keys("pgup")
	// The working line counts the tokens; the conversation must not move.
	conversation := func() string { return strings.Split(d.screen(), "working ·")[0] }
	before := conversation()
	d.emit(event.TextDelta{Meta: mainMeta, Text: "line 60\n"})
	if after := conversation(); after != before {
		t.Errorf("scrolled-up view moved while text streamed:\n%s\n---\n%s", before, after)
	}
	d.keys("home")
	if !strings.Contains(d.screen(), "› count") {
		t.Errorf("home does not show the start:\n%s", d.screen())
	}
	d.send(tea.MouseMsg{Action: tea.MouseActionPress, Button: tea.MouseButtonWheelDown})
	if strings.Contains(d.screen(), "› count") {
		t.Error("the mouse wheel does not scroll")
	}
	d.keys("end")
	d.emit(event.TextDelta{Meta: mainMeta, Text: "line 61\n"})
	if !strings.Contains(d.screen(), "line 61") {
		t.Errorf("end does not follow the bottom again:\n%s", d.screen())
	}
	for range 10 {
		d.keys("pgup")
	}
	for range 10 {
		d.keys("pgdown")
	}
	d.emit(event.TextDelta{Meta: mainMeta, Text: "line 62\n"})
	if !strings.Contains(d.screen(), "line 62") {
		t.Errorf("scrolling back down to the bottom does not follow it again:\n%s", d.screen())
	}
}
