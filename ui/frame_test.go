package ui

import (
	"reflect"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// batchSchedulesFrame looks for the frame tick in the Cmds an Update
// returned, without running any other.
func batchSchedulesFrame(t *testing.T, m Model, cmd tea.Cmd) bool {
	t.Helper()
	if cmd == nil {
		return false
	}
	if reflect.ValueOf(cmd).Pointer() == reflect.ValueOf(frameTick).Pointer() {
		return true
	}
	if reflect.ValueOf(cmd).Pointer() == reflect.ValueOf(m.wait).Pointer() {
		return false // waits for the session's next event
	}
	if batch, ok := cmd().(tea.BatchMsg); ok {
		for _, c := range batch {
			if batchSchedulesFrame(t, m, c) {
				return true
			}
		}
	}
	return false
}

// Events that come right after a frame wait for the next one; events
// that come most of a frame after it are drawn in the same wake-up, with
// no second one for a frame tick.
func TestEventsAfterAPauseAreDrawnAtOnce(t *testing.T) {
	d := newDriver(t, 100, 30)
	now := t0.Add(3 * time.Second)
	d.m.clock.now = func() time.Time { return now }
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "go"})
	_ = d.m.View()

	model, cmd := d.m.Update(eventsMsg{event.TextDelta{Meta: mainMeta, Text: "early words"}})
	m := model.(Model)
	if !batchSchedulesFrame(t, m, cmd) {
		t.Fatal("events right after a frame did not wait for the next frame")
	}
	if strings.Contains(stripped(m.View()), "early words") {
		t.Fatal("events right after a frame were drawn before their frame")
	}
	model, _ = m.Update(frameMsg{})
	m = model.(Model)
	if !strings.Contains(stripped(m.View()), "early words") {
		t.Fatal("the frame did not draw the events it waited for")
	}

	now = now.Add(FrameInterval)
	model, cmd = m.Update(eventsMsg{event.TextDelta{Meta: mainMeta, Text: " and later ones"}})
	m = model.(Model)
	if batchSchedulesFrame(t, m, cmd) {
		t.Error("events a frame after the last one scheduled another frame")
	}
	if !strings.Contains(stripped(m.View()), "early words and later ones") {
		t.Errorf("events a frame after the last one are not drawn at once:\n%s", stripped(m.View()))
	}
}
