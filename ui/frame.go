package ui

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// FrameInterval is the longest events wait to be drawn. Events that
// arrive within one interval are applied as they come and drawn together,
// so eight streaming children cost one view per frame, not one per event.
const FrameInterval = time.Second / 30

// frameMsg says a frame is due: the view is rebuilt on the next View.
type frameMsg struct{}

// frameTick waits out one frame. It is a variable so tests can tell it
// from other Cmds and skip the wait.
var frameTick tea.Cmd = func() tea.Msg {
	time.Sleep(FrameInterval)
	return frameMsg{}
}

// frame is the last view built and whether it is still true. It is a
// pointer shared by the Model's copies: Bubble Tea asks for View after
// every message, and most messages between two frames change nothing a
// person could see yet.
type frame struct {
	view      string
	stale     bool
	scheduled bool // a frameTick is on its way
	// unfitted says events changed what the body holds since the sizes
	// were last fitted: fitting measures every live pane, so it waits for
	// the frame that draws them rather than running per event.
	unfitted bool
}

// touch says the screen changed now (a key, a resize, a tick): the next
// View rebuilds.
func (f *frame) touch() { f.stale = true }

// later says the screen changed but may wait for the next frame, which it
// schedules unless one is already on its way.
func (f *frame) later() tea.Cmd {
	if f.scheduled {
		return nil
	}
	f.scheduled = true
	return frameTick
}

// due is a frame arriving: what changed since the last one is drawn.
func (f *frame) due() {
	f.scheduled = false
	f.stale = true
}

// cached returns the last view when nothing changed since it was built.
func (f *frame) cached() (string, bool) {
	return f.view, !f.stale && f.view != ""
}

// keep stores a freshly built view.
func (f *frame) keep(view string) string {
	f.view, f.stale = view, false
	return view
}
