package child

import (
	"context"
	"sync"
)

// slotQueue bounds how many children run at once and grants free slots in
// the order children took their place in line (a plain channel semaphore
// would not).
type slotQueue struct {
	mu      sync.Mutex
	free    int
	waiters []*ticket
}

// ticket is one child's place in a slotQueue: waiting, then holding a slot.
type ticket struct {
	q     *slotQueue
	ready chan struct{} // closed when the slot is granted
	done  bool          // released or left the line
}

// newSlotQueue returns a queue with n slots.
func newSlotQueue(n int) *slotQueue {
	return &slotQueue{free: n}
}

// enqueue takes a place in line, with a slot at once if one is free and
// nobody waits before. Children that need no approval enqueue while their
// parent prepares its task calls one by one, so they run in the order
// requested.
func (q *slotQueue) enqueue() *ticket {
	q.mu.Lock()
	defer q.mu.Unlock()
	t := &ticket{q: q, ready: make(chan struct{})}
	if q.free > 0 && len(q.waiters) == 0 {
		q.free--
		close(t.ready)
		return t
	}
	q.waiters = append(q.waiters, t)
	return t
}

// wait blocks until the ticket holds a slot. It fails only when ctx ends
// first, and the ticket has then left the line.
func (t *ticket) wait(ctx context.Context) error {
	select {
	case <-t.ready:
		return nil
	case <-ctx.Done():
		t.release()
		return ctx.Err()
	}
}

// position is the ticket's place in line (1 is next), or 0 once granted.
func (t *ticket) position() int {
	t.q.mu.Lock()
	defer t.q.mu.Unlock()
	for i, w := range t.q.waiters {
		if w == t {
			return i + 1
		}
	}
	return 0
}

// release gives the slot back, or leaves the line if none was granted yet.
// Calls after the first do nothing.
func (t *ticket) release() {
	q := t.q
	q.mu.Lock()
	defer q.mu.Unlock()
	if t.done {
		return
	}
	t.done = true
	for i, w := range q.waiters {
		if w == t {
			q.waiters = append(q.waiters[:i], q.waiters[i+1:]...)
			return
		}
	}
	// The ticket held a slot: hand it to the first in line.
	if len(q.waiters) == 0 {
		q.free++
		return
	}
	next := q.waiters[0]
	q.waiters = q.waiters[1:]
	close(next.ready)
}
