package ui

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// batchSchedulesFrame looks for the frame tick in the Cmds an Update
// returned, without running any other.
func batchSchedulesFrame(t *testing.T, m Model, cmd tea.Cmd) bool {
	t.Helper()
	return batchHas(t, m, cmd, frameTick)
}

// batchHas looks for want among the Cmds an Update returned, without
// running any other.
func batchHas(t *testing.T, m Model, cmd, want tea.Cmd) bool {
	t.Helper()
	if cmd == nil {
		return false
	}
	switch reflect.ValueOf(cmd).Pointer() {
	case reflect.ValueOf(want).Pointer():
		return true
	case reflect.ValueOf(m.wait).Pointer(), reflect.ValueOf(frameTick).Pointer(), reflect.ValueOf(frameSoon).Pointer():
		return false // waits for the session's next event, or a frame
	}
	if batch, ok := cmd().(tea.BatchMsg); ok {
		for _, c := range batch {
			if batchHas(t, m, c, want) {
				return true
			}
		}
	}
	return false
}

// drawnSoon checks that an Update's Cmds bring the frame due now, and
// hands the model that frame.
func drawnSoon(t *testing.T, m Model, cmd tea.Cmd) Model {
	t.Helper()
	if batchSchedulesFrame(t, m, cmd) || !batchHas(t, m, cmd, frameSoon) {
		t.Fatal("a frame due now waits for a frame tick")
	}
	model, _ := m.Update(frameMsg{soon: true})
	return model.(Model)
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
	m = drawnSoon(t, model.(Model), cmd)
	if !strings.Contains(stripped(m.View()), "early words and later ones") {
		t.Errorf("events a frame after the last one are not drawn at once:\n%s", stripped(m.View()))
	}
}

// A frame tick and the read of a stream wake on the same boundary, in
// either order. When the tick comes first and builds a frame, the events
// right after it are drawn at once rather than waiting for the next
// tick, and the next boundary's events, a frame later, need no tick:
// the text of every frame is drawn in its own frame, not one late.
func TestEventsAfterATickFrameAreNotLate(t *testing.T) {
	d := newDriver(t, 100, 30)
	now := t0.Add(3 * time.Second)
	d.m.clock.now = func() time.Time { return now }
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "go"})
	_ = d.m.View()
	update := func(msg tea.Msg) tea.Cmd {
		t.Helper()
		model, cmd := d.m.Update(msg)
		d.m = model.(Model)
		return cmd
	}
	if !batchSchedulesFrame(t, d.m, update(eventsMsg{event.TextDelta{Meta: mainMeta, Text: "one"}})) {
		t.Fatal("events right after a frame did not wait for the next frame")
	}
	now = now.Add(FrameInterval) // the boundary: the tick comes first
	update(frameMsg{})
	if !strings.Contains(stripped(d.m.View()), "one") {
		t.Fatal("the tick did not draw the events it waited for")
	}
	now = now.Add(200 * time.Microsecond) // the stream's read, in the same wake-up
	d.m = drawnSoon(t, d.m, update(eventsMsg{event.TextDelta{Meta: mainMeta, Text: " two"}}))
	if !strings.Contains(stripped(d.m.View()), "one two") {
		t.Errorf("events right after a tick's frame were not drawn at once:\n%s", stripped(d.m.View()))
	}
	now = now.Add(FrameInterval) // the next boundary's read
	d.m = drawnSoon(t, d.m, update(eventsMsg{event.TextDelta{Meta: mainMeta, Text: " three"}}))
	if !strings.Contains(stripped(d.m.View()), "one two three") {
		t.Errorf("the next frame's events were not drawn at once:\n%s", stripped(d.m.View()))
	}
	before := d.m.frame.built
	update(frameMsg{}) // a tick with nothing waiting for it
	if _ = d.m.View(); d.m.frame.built != before {
		t.Error("a tick with nothing waiting built a frame")
	}
}

// The clock's beat turns the spinner without a frame of its own while
// frames come anyway: the next one shows it. After a pause it is drawn
// at once, so the spinner turns while nothing else moves.
func TestBeatWaitsForTheNextFrame(t *testing.T) {
	d := newDriver(t, 100, 30)
	now := t0.Add(3 * time.Second)
	d.m.clock.now = func() time.Time { return now }
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "go"})
	first := stripped(d.m.View())
	model, cmd := d.m.Update(spinner.TickMsg{})
	d.m = model.(Model)
	if batchSchedulesFrame(t, d.m, cmd) {
		t.Error("a beat right after a frame scheduled a frame tick")
	}
	if got := stripped(d.m.View()); got != first {
		t.Error("a beat right after a frame built one of its own")
	}
	now = now.Add(FrameInterval)
	model, cmd = d.m.Update(eventsMsg{event.TextDelta{Meta: mainMeta, Text: "words"}})
	d.m = drawnSoon(t, model.(Model), cmd)
	if got := stripped(d.m.View()); !strings.Contains(got, "words") || spinnerOn(got) == spinnerOn(first) {
		t.Errorf("the next frame does not show the turned spinner:\n%s", got)
	}
	shown := stripped(d.m.View())
	now = now.Add(3 * FrameInterval) // a pause: nothing streams
	model, _ = d.m.Update(spinner.TickMsg{})
	d.m = model.(Model)
	if spinnerOn(stripped(d.m.View())) == spinnerOn(shown) {
		t.Error("a beat after a pause did not turn the spinner on screen")
	}
}

// spinnerOn is the spinner's glyph on the working line of a screen.
func spinnerOn(screen string) string {
	for _, line := range strings.Split(screen, "\n") {
		if strings.Contains(line, "working") {
			return string([]rune(line)[0])
		}
	}
	return ""
}

// The streams read on one boundary may reach the UI as several batches
// in one wake-up: the frame due waits for them all, and one frame draws
// them.
func TestBatchesOfOneWakeUpShareAFrame(t *testing.T) {
	d := newDriver(t, 100, 30)
	now := t0.Add(3 * time.Second)
	d.m.clock.now = func() time.Time { return now }
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "go"})
	_ = d.m.View()
	now = now.Add(FrameInterval)
	model, cmd := d.m.Update(eventsMsg{event.TextDelta{Meta: mainMeta, Text: "first"}})
	m := model.(Model)
	if !batchHas(t, m, cmd, frameSoon) {
		t.Fatal("events a frame after the last did not bring a frame due now")
	}
	before := m.frame.built
	_ = m.View()
	now = now.Add(50 * time.Microsecond)
	model, cmd = m.Update(eventsMsg{event.TextDelta{Meta: mainMeta, Text: " second"}})
	m = model.(Model)
	if batchHas(t, m, cmd, frameSoon) || batchSchedulesFrame(t, m, cmd) {
		t.Error("a second batch in the same wake-up asked for a frame of its own")
	}
	if _ = m.View(); m.frame.built != before {
		t.Error("a frame was built before every batch of the wake-up was in")
	}
	model, _ = m.Update(frameMsg{soon: true})
	m = model.(Model)
	if got := stripped(m.View()); !strings.Contains(got, "first second") {
		t.Errorf("the frame does not draw both batches:\n%s", got)
	}
}
