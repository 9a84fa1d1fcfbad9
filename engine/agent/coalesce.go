package agent

import (
	"strings"
	"sync"
	"time"
)

// coalesceWindow is how long streamed text may gather before it is sent:
// about one frame, so the render rate stays independent of the token rate.
const coalesceWindow = 16 * time.Millisecond

// coalescer gathers text deltas and hands them on in batches. The agent's
// stream reader adds and flushes; a timer sends what is left when the
// stream pauses, so a quiet tail (the model thinking, a slow last word)
// reaches the person within a window instead of waiting for the next
// delta. send is called under the lock, which keeps batches in order with
// whatever the reader emits after a flush.
type coalescer struct {
	mu        sync.Mutex
	buf       strings.Builder
	lastFlush time.Time
	timer     *time.Timer
	armed     bool // the timer will fire and flush
	stopped   bool
	send      func(string)
}

// add appends a delta and sends the batch when the window has passed since
// the last send; otherwise the timer sends it one window from now unless a
// later delta does first. The first delta after a pause goes out at once.
// While deltas keep coming the timer is stopped before it fires, so a
// steady stream costs no wake-ups beyond its own.
func (c *coalescer) add(s string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.buf.WriteString(s)
	switch {
	case time.Since(c.lastFlush) >= coalesceWindow:
		c.flushLocked()
		if c.armed {
			c.armed = false
			c.timer.Stop()
		}
	case c.armed || c.stopped:
	case c.timer == nil:
		c.armed = true
		c.timer = time.AfterFunc(coalesceWindow, c.tick)
	default:
		c.armed = true
		c.timer.Reset(coalesceWindow)
	}
}

// tick is the timer's flush.
func (c *coalescer) tick() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.armed = false
	if !c.stopped {
		c.flushLocked()
	}
}

// flush sends whatever is gathered.
func (c *coalescer) flush() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.flushLocked()
}

// stop sends what is left and disarms the timer: the stream has ended,
// and nothing may be sent after the events that follow it.
func (c *coalescer) stop() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.flushLocked()
	c.stopped = true
	if c.timer != nil {
		c.timer.Stop()
	}
}

func (c *coalescer) flushLocked() {
	if c.buf.Len() == 0 {
		return
	}
	text := c.buf.String()
	c.buf.Reset()
	c.lastFlush = time.Now()
	c.send(text)
}
