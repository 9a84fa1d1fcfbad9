package llm

import (
	"context"
	"io"
	"net"
	"time"

	"github.com/seed-e4e525a6/baton/engine/rawio"
	"github.com/seed-e4e525a6/baton/engine/wake"
)

// readBlocked is how long a read must take to count as having waited for
// the endpoint; a read of data already there takes microseconds.
const readBlocked = time.Millisecond

// Gather is how a fast stream gathers between reads (see gatheringBody).
// The zero value reads every chunk as it comes.
type Gather struct {
	// Most is the longest window: the delay gathering may add to a chunk.
	Most time.Duration
	// Share, when positive, also bounds the window by the stream's age:
	// at most 1/Share of the time it has run, so the delay gathering adds
	// to the end of a reply stays a small share of the wait for it.
	Share int
}

// gatheringBody reads a response body the way a person can follow it.
// Each read that has to wait for the endpoint costs the process a
// wake-up, and a wake-up costs far more than the few bytes of a chunk:
// read chunk by chunk, a paced answer of 300 words is 300 wake-ups. So
// once chunks come more often than once per gather window, the body is
// read at most once per window, on window boundaries every stream shares
// (so children streaming side by side wake together), and whatever
// arrived meanwhile is read in one go. A stream that slows down, or a burst that
// fills the buffer, is read as it comes. Before every read, onWait is
// told that everything read so far has been handed on.
type gatheringBody struct {
	rc     io.ReadCloser
	ctx    context.Context
	gather Gather
	onWait func()
	// hurried, once true, ends the gathering (nil: it never ends).
	hurried *bool
	// conn is the connection the body arrives on, held quiet while the
	// body sleeps (nil: none of its own, as over HTTP/2).
	conn net.Conn

	// clock is the time the body reads by (nil: the real one).
	clock clock

	began time.Time // the first data came
	fast  bool      // chunks come more often than once per window
	full  bool      // the last read filled the buffer: more is waiting
}

// Read implements io.Reader.
func (b *gatheringBody) Read(p []byte) (int, error) {
	if b.onWait != nil {
		b.onWait()
	}
	if b.clock == nil {
		b.clock = realClock{}
	}
	window := b.window()
	if now := b.clock.now(); b.fast && !b.full && window > 0 {
		b.sleep(wake.Boundary(now, window), len(p))
	}
	start := b.clock.now()
	n, err := b.rc.Read(p)
	if n > 0 {
		if b.began.IsZero() {
			b.began = start
		}
		if waited := b.clock.now().Sub(start); waited >= readBlocked {
			b.fast = waited < window
		}
		b.full = n == len(p)
	}
	return n, err
}

// sleep waits for the window's end, the connection quiet until room
// bytes have arrived (see rawio.Quiet): what comes before then is read
// in one go at the end, and waking for it would only cost the process a
// wake-up.
func (b *gatheringBody) sleep(end time.Time, room int) {
	if b.conn != nil {
		rawio.Quiet(b.conn, room)
	}
	b.clock.sleep(b.ctx, end)
}

// window is how long the stream may gather now, in whole milliseconds
// so that streams of about the same age share boundaries.
func (b *gatheringBody) window() time.Duration {
	if b.hurried != nil && *b.hurried {
		return 0
	}
	w := b.gather.Most
	if b.gather.Share > 0 {
		if b.began.IsZero() {
			return 0
		}
		w = min(w, b.clock.now().Sub(b.began)/time.Duration(b.gather.Share))
	}
	return w.Truncate(time.Millisecond)
}

// Close implements io.Closer.
func (b *gatheringBody) Close() error { return b.rc.Close() }

// clock is what gatheringBody reads the time and waits by.
type clock interface {
	now() time.Time
	// sleep waits until end, or until ctx ends.
	sleep(ctx context.Context, end time.Time)
}

// realClock is the system's clock; its waits are the shared clock's
// (package wake), which cost the process one wake-up each.
type realClock struct{}

func (realClock) now() time.Time { return time.Now() }

func (realClock) sleep(ctx context.Context, end time.Time) { wake.Until(ctx, end) }
