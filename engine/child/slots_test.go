package child

import (
	"context"
	"testing"
)

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
