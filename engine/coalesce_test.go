package engine

import (
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

// TestQuietTailIsSent: text held back to coalesce it with the next delta
// still reaches the events when the stream goes quiet. The server sends
// two deltas and then waits, holding the stream open, until the second
// one has arrived as an event; without a flush on pause it would wait for
// ever and the turn would not end.
func TestQuietTailIsSent(t *testing.T) {
	tailSeen := make(chan struct{})
	s, _ := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		w.Chunk(`{"choices":[{"index":0,"delta":{"content":"first "}}]}`)
		w.Chunk(`{"choices":[{"index":0,"delta":{"content":"tail"}}]}`)
		select {
		case <-tailSeen:
		case <-w.Context().Done():
			return
		}
		w.Chunk(`{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`)
		w.Done()
	}, nil)
	var text strings.Builder
	closed := false
	log := watchTurn(t, s, "hi", func(ev event.Event) {
		if d, ok := ev.(event.TextDelta); ok && d.Agent == event.MainAgent {
			text.WriteString(d.Text)
			if strings.HasSuffix(text.String(), "tail") && !closed {
				closed = true
				close(tailSeen)
			}
		}
	})
	if log.End.Status != event.StatusCompleted || text.String() != "first tail" {
		t.Fatalf("turn %s, streamed %q", log.End.Status, text.String())
	}
}
