package wake

import (
	"context"
	"testing"
	"time"
)

// A wait ends at its moment, never before it.
func TestUntilWaitsForTheMoment(t *testing.T) {
	for range 3 {
		at := time.Now().Add(15 * time.Millisecond)
		Until(context.Background(), at)
		if now := time.Now(); now.Before(at) {
			t.Fatalf("woke at %v, %v before the moment", now, at.Sub(now))
		}
	}
}

// A moment already past costs no wait.
func TestUntilThePastReturnsAtOnce(t *testing.T) {
	done := make(chan struct{})
	go func() {
		Until(context.Background(), time.Now().Add(-time.Hour))
		close(done)
	}()
	<-done
}

// Ending the context ends a wait under way: a stopped stream does not
// sleep out its window. The wait after it, on the same kind of timer,
// is not cut short by what ended the first.
func TestCancelEndsTheWait(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		Until(ctx, time.Now().Add(time.Hour))
		close(done)
	}()
	cancel()
	<-done
	at := time.Now().Add(20 * time.Millisecond)
	Until(context.Background(), at)
	if now := time.Now(); now.Before(at) {
		t.Fatalf("the wait after a cancelled one woke %v early", at.Sub(now))
	}
}

// An ended context costs no wait at all.
func TestEndedContextReturnsAtOnce(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	done := make(chan struct{})
	go func() {
		Until(ctx, time.Now().Add(time.Hour))
		close(done)
	}()
	<-done
}

// Waits side by side each end at their own moment.
func TestWaitsSideBySide(t *testing.T) {
	start := time.Now()
	moments := []time.Duration{30 * time.Millisecond, 10 * time.Millisecond, 20 * time.Millisecond}
	woke := make(chan [2]time.Time, len(moments))
	for _, d := range moments {
		go func() {
			at := start.Add(d)
			Until(context.Background(), at)
			woke <- [2]time.Time{at, time.Now()}
		}()
	}
	for range moments {
		w := <-woke
		if w[1].Before(w[0]) {
			t.Errorf("a wait for %v woke %v early", w[0].Sub(start), w[0].Sub(w[1]))
		}
	}
}

// Boundary is the next multiple of the period, on the wall clock, so
// waiters of one period share it whenever they ask.
func TestBoundary(t *testing.T) {
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		now  time.Duration
		want time.Duration
	}{
		{0, 32 * time.Millisecond},
		{time.Millisecond, 32 * time.Millisecond},
		{31 * time.Millisecond, 32 * time.Millisecond},
		{32 * time.Millisecond, 64 * time.Millisecond},
		{33 * time.Millisecond, 64 * time.Millisecond},
	} {
		if got := Boundary(base.Add(c.now), 32*time.Millisecond); !got.Equal(base.Add(c.want)) {
			t.Errorf("Boundary at +%v = +%v, want +%v", c.now, got.Sub(base), c.want)
		}
	}
}
