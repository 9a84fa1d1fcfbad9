package ui

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/engine/event"
	area "github.com/seed-e4e525a6/baton/ui/agents"
	"github.com/seed-e4e525a6/baton/ui/approval"
	"github.com/seed-e4e525a6/baton/ui/overlay"
	"github.com/seed-e4e525a6/baton/ui/overlay/pick"
	changes "github.com/seed-e4e525a6/baton/ui/review"
)

// tickCode identifies the animation clock's Cmds, which sleep: the
// driver never runs them.
var tickCode = reflect.ValueOf(beat(0).next).Pointer()

// driver runs a Model the way Bubble Tea would, on the test goroutine:
// it applies messages, runs the Cmds Update returns and feeds their
// messages back, keeps the pending event wait aside until the test sends
// events, and never runs the animation clock.
type driver struct {
	t     *testing.T
	m     Model
	s     *fakeSession
	waits []tea.Cmd
	quit  bool
	// hold keeps the Model's timers (card arming, notifications) aside in
	// timers until the test fires them; otherwise they fire at once, as
	// if the person had paused.
	hold   bool
	timers []tea.Msg
}

// after is the Model's clock in tests.
func (d *driver) after(_ time.Duration, msg tea.Msg) tea.Cmd {
	if d.hold {
		d.timers = append(d.timers, msg)
		return nil
	}
	return func() tea.Msg { return msg }
}

// fire sends the held timers, as the clock would after a pause.
func (d *driver) fire() {
	d.t.Helper()
	timers := d.timers
	d.timers = nil
	for _, msg := range timers {
		d.send(msg)
	}
}

func newDriver(t *testing.T, width, height int) *driver {
	t.Helper()
	return newDriverFor(t, newFakeSession(), Options{Workspace: "/work/app", Theme: "dark", ContextWindow: 128000, Version: "0.1.0"}, width, height)
}

// newDriverFor starts a UI on a given session with given options; the
// clock reads t0+3s.
func newDriverFor(t *testing.T, s *fakeSession, opts Options, width, height int) *driver {
	t.Helper()
	d := &driver{t: t, s: s, m: New(s, opts)}
	d.m.clock.now = func() time.Time { return t0.Add(3 * time.Second) }
	d.m.approvals.SetAfter(d.after)
	d.m.agents.SetAfter(d.after)
	d.run(d.m.Init())
	d.send(tea.WindowSizeMsg{Width: width, Height: height})
	return d
}

// send applies one message and everything it leads to.
func (d *driver) send(msg tea.Msg) {
	d.t.Helper()
	model, cmd := d.m.Update(msg)
	d.m = model.(Model)
	d.run(cmd)
}

func (d *driver) run(cmd tea.Cmd) {
	d.t.Helper()
	if cmd == nil {
		return
	}
	switch reflect.ValueOf(cmd).Pointer() {
	case reflect.ValueOf(d.m.wait).Pointer(): // blocks until the test sends events
		d.waits = append(d.waits, cmd)
		return
	case tickCode:
		return
	case reflect.ValueOf(frameTick).Pointer(): // the frame is due at once
		d.send(frameMsg{})
		return
	}
	switch msg := cmd().(type) {
	case nil:
	case tea.BatchMsg:
		for _, c := range msg {
			d.run(c)
		}
	case tea.QuitMsg:
		d.quit = true
	default:
		d.send(msg)
	}
}

// emit queues events on the session's channel and lets the UI take them.
// Exactly one wait must be pending: more would race, none would hang.
func (d *driver) emit(evs ...event.Event) {
	d.t.Helper()
	if len(d.waits) != 1 {
		d.t.Fatalf("%d event waits pending, want exactly 1", len(d.waits))
	}
	for _, ev := range evs {
		d.s.events <- ev
	}
	wait := d.waits[0]
	d.waits = nil
	d.send(wait())
}

// keys sends key presses: named keys ("enter", "esc", "ctrl+c") or runes.
func (d *driver) keys(keys ...string) {
	d.t.Helper()
	for _, k := range keys {
		d.send(keyMsg(k))
	}
}

// typeText types text rune by rune.
func (d *driver) typeText(text string) {
	d.t.Helper()
	for _, r := range text {
		d.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
}

var namedKeys = map[string]tea.KeyType{
	"enter": tea.KeyEnter, "esc": tea.KeyEsc, "ctrl+c": tea.KeyCtrlC, "tab": tea.KeyTab, "shift+tab": tea.KeyShiftTab,
	"up": tea.KeyUp, "down": tea.KeyDown, "pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown,
	"home": tea.KeyHome, "end": tea.KeyEnd, "ctrl+o": tea.KeyCtrlO, "ctrl+j": tea.KeyCtrlJ,
	"ctrl+r": tea.KeyCtrlR, "backspace": tea.KeyBackspace,
}

func keyMsg(k string) tea.KeyMsg {
	if t, ok := namedKeys[k]; ok {
		return tea.KeyMsg{Type: t}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
}

// screen is the view as plain text, trailing spaces trimmed.
func (d *driver) screen() string {
	lines := strings.Split(ansi.Strip(d.m.View()), "\n")
	for i, line := range lines {
		lines[i] = strings.TrimRight(line, " ")
	}
	return strings.Join(lines, "\n")
}

// checkFits fails when the view is not exactly the terminal's height or
// a line is wider than the terminal.
func (d *driver) checkFits() {
	d.t.Helper()
	lines := strings.Split(d.m.View(), "\n")
	if len(lines) != d.m.height {
		d.t.Errorf("%dx%d: view has %d lines", d.m.width, d.m.height, len(lines))
	}
	for i, line := range lines {
		if w := ansi.StringWidth(line); w > d.m.width {
			d.t.Errorf("%dx%d: line %d is %d wide: %q", d.m.width, d.m.height, i, w, ansi.Strip(line))
		}
	}
}

// focus is the child whose pane has the focus, "" for the input.
func (d *driver) focus() event.AgentID {
	if p := d.m.agents.Focused(); p != nil {
		return p.ID()
	}
	return ""
}

// layer names the layer on top: "" when none is open.
func (d *driver) layer() string {
	switch top := d.m.layers.Top().(type) {
	case nil:
		return ""
	case *approval.Model:
		return "cards"
	case *area.Message:
		return "message"
	case *overlay.Transcript:
		return "transcript"
	case *changes.Model:
		return "review"
	case *pick.Picker:
		if top.Title() == "Switch model" {
			return "model"
		}
	}
	return fmt.Sprintf("%T", d.m.layers.Top())
}

// mainMeta tags an event's Meta as the main agent's.
var mainMeta = event.Meta{Agent: event.MainAgent}

// newRequest returns the channel on which req's answer arrives, the way
// the engine waits for it.
func newRequest(t *testing.T, req *event.ApprovalRequest) chan event.Answer {
	t.Helper()
	ch := make(chan event.Answer, 1)
	go func() { ch <- req.Wait(t.Context()) }()
	return ch
}
