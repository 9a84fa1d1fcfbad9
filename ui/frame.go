package ui

import (
	"context"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/wake"
)

// FrameInterval is the longest events wait to be drawn. Events that
// arrive within one interval are applied as they come and drawn together,
// so eight streaming children cost one view per frame, not one per event.
// Frames fall on its boundaries, as do the animation clock's beats and
// the reads of the streams the TUI gathers, so one wake-up serves them.
const FrameInterval = 32 * time.Millisecond

// frameMsg says a frame is due: the view is rebuilt on the next View.
type frameMsg struct{}

// frameTick waits for the next frame boundary. It is a variable so tests
// can tell it from other Cmds and skip the wait.
var frameTick tea.Cmd = func() tea.Msg {
	wake.Until(context.Background(), wake.Boundary(time.Now(), FrameInterval))
	return frameMsg{}
}

// frame is the last view built and whether it is still true. It is a
// pointer shared by the Model's copies: Bubble Tea asks for View after
// every message, and most messages between two frames change nothing a
// person could see yet.
type frame struct {
	view      []string  // its lines
	built     time.Time // when view was built, by the model's clock
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

// later says the screen changed but may wait for the next frame. When
// the last view was built most of a frame ago, the frame is due now:
// events after a pause, or from streams read once a frame (see
// llm.Gather), are drawn in the wake-up that brought them, not in a
// second one a frame later. Otherwise it schedules the next frame unless
// one is already on its way.
func (f *frame) later(now time.Time) tea.Cmd {
	if f.scheduled {
		return nil
	}
	if now.Sub(f.built) >= FrameInterval*3/4 {
		f.stale = true
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
func (f *frame) cached() ([]string, bool) {
	return f.view, !f.stale && f.view != nil
}

// keep stores a freshly built view, built at now.
func (f *frame) keep(view []string, now time.Time) []string {
	f.view, f.built, f.stale = view, now, false
	return view
}
