package engine

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

func TestQueuedChildrenRunInTheOrderRequested(t *testing.T) {
	var mu sync.Mutex
	var order []string
	s, _ := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case isChild(r):
			mu.Lock()
			order = append(order, r.LastUser())
			mu.Unlock()
			w.Text("ok")
		case len(toolMessages(r)) == 0:
			w.ToolCalls(taskCall("a", "explore", "first", "job 1"), taskCall("b", "review", "second", "job 2"),
				taskCall("c", "general-purpose", "third", "job 3"))
		default:
			w.Text("done")
		}
	}, func(c *Config) { c.Limits.MaxConcurrent = 1 })
	log := runTurn(t, s, "go", nil)
	if strings.Join(order, ",") != "job 1,job 2,job 3" {
		t.Fatalf("children ran in the order %v", order)
	}
	if len(eventsOf[event.AgentQueued](log)) != 2 {
		t.Fatalf("%d queued events, want 2", len(eventsOf[event.AgentQueued](log)))
	}
}

func TestSlotQueueHandsSlotsOnInOrder(t *testing.T) {
	q := newSlotQueue(1)
	first := q.enqueue()
	second, third := q.enqueue(), q.enqueue()
	if second.position() != 1 || third.position() != 2 {
		t.Fatalf("positions %d, %d", second.position(), third.position())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := second.wait(ctx); err == nil {
		t.Fatal("a cancelled wait succeeded")
	}
	first.release()
	if err := third.wait(context.Background()); err != nil {
		t.Fatalf("the slot did not pass over the one who left: %v", err)
	}
	third.release()
	third.release()
	if q.free != 1 || len(q.waiters) != 0 {
		t.Fatalf("queue after all left: free %d, waiting %d", q.free, len(q.waiters))
	}
}
