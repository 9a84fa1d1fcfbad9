package wake

import (
	"context"
	"testing"
	"time"
)

// Where the kernel gives no timerfd, a wait is a Go timer and keeps the
// same promises: it ends at its moment, never before, and ending its
// context ends it.
func TestWithoutTimerfdAWaitIsAGoTimer(t *testing.T) {
	pool.Lock()
	saved, wasBroken := pool.free, pool.broken
	pool.free, pool.broken = nil, true
	pool.Unlock()
	t.Cleanup(func() {
		pool.Lock()
		pool.free, pool.broken = saved, wasBroken
		pool.Unlock()
	})

	at := time.Now().Add(15 * time.Millisecond)
	Until(context.Background(), at)
	if now := time.Now(); now.Before(at) {
		t.Fatalf("woke %v before the moment", at.Sub(now))
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		Until(ctx, time.Now().Add(time.Hour))
		close(done)
	}()
	cancel()
	<-done
	pool.Lock()
	defer pool.Unlock()
	if len(pool.free) != 0 {
		t.Fatalf("a timerfd was made although the kernel gave none: %d in the pool", len(pool.free))
	}
}
