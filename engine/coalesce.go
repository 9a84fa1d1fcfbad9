package engine

import (
	"strings"
	"time"
)

// coalesceWindow is how long streamed text may gather before it is sent:
// about one frame, so the render rate stays independent of the token rate.
const coalesceWindow = 16 * time.Millisecond

// coalescer gathers text deltas and hands them on in batches. It is used by
// one goroutine (the agent's stream reader) and needs no locking.
type coalescer struct {
	buf       strings.Builder
	lastFlush time.Time
	send      func(string)
}

// add appends a delta and sends the batch when the window has passed since
// the last send. The first delta after a pause goes out at once.
func (c *coalescer) add(s string) {
	c.buf.WriteString(s)
	if time.Since(c.lastFlush) >= coalesceWindow {
		c.flush()
	}
}

// flush sends whatever is gathered.
func (c *coalescer) flush() {
	if c.buf.Len() == 0 {
		return
	}
	text := c.buf.String()
	c.buf.Reset()
	c.lastFlush = time.Now()
	c.send(text)
}
