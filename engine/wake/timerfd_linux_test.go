package wake

import (
	"context"
	"testing"
	"time"
)

// poolSize is how many waiters wait unused.
func poolSize() int {
	pool.Lock()
	defer pool.Unlock()
	return len(pool.free)
}

// On Linux a wait is a timerfd, kept for the next wait; one whose wait
// was cancelled is closed, not kept, so the deadline that cut it short
// cannot reach another wait.
func TestWaitersAreReusedUnlessCancelled(t *testing.T) {
	Until(context.Background(), time.Now().Add(time.Millisecond))
	kept := poolSize()
	if kept == 0 {
		t.Fatal("no timerfd kept after a wait: waits fall back to Go timers")
	}
	Until(context.Background(), time.Now().Add(time.Millisecond))
	if got := poolSize(); got != kept {
		t.Fatalf("%d waiters after a second wait, want the %d kept reused", got, kept)
	}
	w := take()
	if w == nil {
		t.Fatal("no timerfd to take")
	}
	ctx, cancel := context.WithCancel(context.Background())
	reusable := make(chan bool)
	go func() { reusable <- w.wait(ctx, time.Now().Add(time.Hour)) }()
	cancel()
	if <-reusable {
		t.Fatal("a waiter whose wait was cancelled is offered for reuse")
	}
	if _, err := w.f.Read(make([]byte, 8)); err == nil {
		t.Fatal("the cancelled waiter's timerfd is still open")
	}
}

// A timer is set only once the poller waits on its descriptor afresh:
// a moment so near that it passes before the poller waits still ends
// the wait, and the waiter is kept for the next.
func TestAMomentPassingBeforeThePollerWaitsEndsTheWait(t *testing.T) {
	for i := range 300 {
		Until(context.Background(), time.Now().Add(time.Duration(i%7)*time.Microsecond+time.Nanosecond))
	}
	if poolSize() == 0 {
		t.Fatal("no timerfd kept after the waits: they fell back to Go timers")
	}
}
