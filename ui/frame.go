package ui

import (
	"context"
	"runtime"
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
// soon tells the frame frameSoon brings from frameTick's.
type frameMsg struct{ soon bool }

// frameTick waits for the next frame boundary. It is a variable so tests
// can tell it from other Cmds and skip the wait.
var frameTick tea.Cmd = func() tea.Msg {
	wake.Until(context.Background(), wake.Boundary(time.Now(), FrameInterval))
	return frameMsg{}
}

// frameSoon brings a frame due now, once what else woke with the
// events that made it due has run: the other streams read on the same
// boundary send their events first, and one frame draws them all, not
// one frame per stream.
var frameSoon tea.Cmd = func() tea.Msg {
	runtime.Gosched()
	return frameMsg{soon: true}
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
	soon      bool // a frameSoon is on its way
	// waiting says changes wait for the frame tick: a tick with nothing
	// waiting builds nothing.
	waiting bool
	// ticked says the last view was built for a frame tick, and tick
	// that the next one will be.
	ticked, tick bool
	// unfitted says events changed what the body holds since the sizes
	// were last fitted: fitting measures every live pane, so it waits for
	// the frame that draws them rather than running per event.
	unfitted bool
}

// touch says the screen changed now (a key, a resize): the next View
// rebuilds.
func (f *frame) touch() { f.stale = true }

// later says the screen changed but may wait for the next frame. When
// the last view was built most of a frame ago, the frame is due now:
// events after a pause, or from streams read once a frame (see
// llm.Gather), are drawn in the wake-up that brought them (frameSoon),
// not in a second one a frame later. So are events that follow, in the
// same wake-up, a frame a tick built: the tick and the streams wake on
// the same boundary in either order, and waiting for the next tick would
// draw every frame's text a frame late, that frame's tick building the
// one before's. Otherwise it schedules the next frame unless one is
// already on its way.
func (f *frame) later(now time.Time) tea.Cmd {
	f.waiting = true
	since := now.Sub(f.built)
	switch {
	case f.soon:
		return nil
	case since >= FrameInterval*3/4 || f.ticked && since < FrameInterval/4:
		f.soon = true
		return frameSoon
	case f.scheduled:
		return nil
	}
	f.scheduled = true
	return frameTick
}

// beat says the screen changed in a way that may wait a beat of the
// clock (the spinner turned, a second passed): a frame built for any
// other reason shows it, and the next beat draws it if none was. Only
// when no frame came for more than a frame, so nothing streams, is it
// drawn at once: a stream's frame is due on this very boundary.
func (f *frame) beat(now time.Time) {
	if now.Sub(f.built) >= FrameInterval*3/2 {
		f.stale = true
	}
}

// due is a frame arriving: what waited for it is drawn.
func (f *frame) due(msg frameMsg) {
	if msg.soon {
		f.soon = false
	} else {
		f.scheduled = false
	}
	if f.waiting {
		f.stale, f.tick = true, !msg.soon
	}
}

// cached returns the last view when nothing changed since it was built.
func (f *frame) cached() ([]string, bool) {
	return f.view, !f.stale && f.view != nil
}

// keep stores a freshly built view, built at now.
func (f *frame) keep(view []string, now time.Time) []string {
	f.view, f.built, f.stale, f.waiting = view, now, false, false
	f.ticked, f.tick = f.tick, false
	return view
}
