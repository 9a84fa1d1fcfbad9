package agent

import (
	"strings"
	"time"

	"github.com/seed-e4e525a6/baton/engine/llm"
)

// DefaultGather is how a fast stream gathers between reads when the
// front end does not say: for a window of up to about a frame, and at
// most 1/16 of the time the reply has streamed, so the delay it adds to
// the end of a reply (what a script or a parent agent waits for) is at
// most a frame and a small share of the wait for it. A smaller share
// kept the first second of every reply at a wake-up per chunk: a third
// of a paced reply's CPU for a few milliseconds at its end.
var DefaultGather = llm.Gather{Most: 32 * time.Millisecond, Share: 16}

// heldText gathers the text deltas of one read of the stream and sends
// them as one: the stream tells it (llm.Handler's OnWait) when it has
// handed on all that arrived and is about to wait, so a read holding a
// dozen chunks costs one event, and nothing is held while the stream
// waits. Only the agent's stream reader uses it, on its goroutine.
type heldText struct {
	buf  strings.Builder
	send func(string)
}

// add holds a delta until the next flush.
func (h *heldText) add(s string) { h.buf.WriteString(s) }

// flush sends whatever is held.
func (h *heldText) flush() {
	if h.buf.Len() == 0 {
		return
	}
	text := h.buf.String()
	h.buf.Reset()
	h.send(text)
}
