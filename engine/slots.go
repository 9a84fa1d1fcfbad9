package engine

import (
	"context"
	"sync"
)

// slotQueue bounds how many children run at once and grants free slots in
// the order they were asked for (a plain channel semaphore would not).
type slotQueue struct {
	mu      sync.Mutex
	free    int
	waiters []chan struct{}
}

// newSlotQueue returns a queue with n slots.
func newSlotQueue(n int) *slotQueue {
	return &slotQueue{free: n}
}

// acquire takes a slot, waiting in line when none is free; onQueued is
// called with the position in line before waiting. It fails only when ctx
// ends first. The returned release must be called exactly once.
func (q *slotQueue) acquire(ctx context.Context, onQueued func(position int)) (func(), error) {
	q.mu.Lock()
	if q.free > 0 {
		q.free--
		q.mu.Unlock()
		return q.release, nil
	}
	ready := make(chan struct{})
	q.waiters = append(q.waiters, ready)
	position := len(q.waiters)
	q.mu.Unlock()
	onQueued(position)
	select {
	case <-ready:
		return q.release, nil
	case <-ctx.Done():
		q.mu.Lock()
		defer q.mu.Unlock()
		for i, w := range q.waiters {
			if w == ready {
				q.waiters = append(q.waiters[:i], q.waiters[i+1:]...)
				return nil, ctx.Err()
			}
		}
		// The slot was handed over while ctx ended: pass it on.
		q.releaseLocked()
		return nil, ctx.Err()
	}
}

// release frees a slot, handing it to the first waiter if any.
func (q *slotQueue) release() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.releaseLocked()
}

// releaseLocked is release with q.mu held.
func (q *slotQueue) releaseLocked() {
	if len(q.waiters) == 0 {
		q.free++
		return
	}
	next := q.waiters[0]
	q.waiters = q.waiters[1:]
	close(next)
}
