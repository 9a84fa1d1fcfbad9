package llm

import (
	"context"
	"errors"
	"net"
	"slices"
	"sync"
	"testing"
	"time"
)

// A burst of dials starts spread out: the i-th to start does so at least
// i spacings after the burst began, however many ask at once.
func TestDialsOfABurstAreSpread(t *testing.T) {
	const spacing, burst = 5 * time.Millisecond, 8
	var (
		mu     sync.Mutex
		starts []time.Time
	)
	dial := pacedDial(spacing, func(context.Context, string, string) (net.Conn, error) {
		mu.Lock()
		starts = append(starts, time.Now())
		mu.Unlock()
		return nil, errors.New("no network in this test")
	})
	began := time.Now()
	var wg sync.WaitGroup
	for range burst {
		wg.Go(func() { _, _ = dial(context.Background(), "tcp", "192.0.2.1:443") })
	}
	wg.Wait()
	slices.SortFunc(starts, func(a, b time.Time) int { return a.Compare(b) })
	for i, start := range starts {
		if early := began.Add(time.Duration(i) * spacing).Sub(start); early > 0 {
			t.Fatalf("dial %d of the burst started %v before its turn", i, early)
		}
	}
}

// A dial waiting for its turn gives up when its context ends.
func TestPacedDialWaitEndsWithItsContext(t *testing.T) {
	dial := pacedDial(time.Hour, func(context.Context, string, string) (net.Conn, error) {
		return nil, errors.New("no network in this test")
	})
	_, _ = dial(context.Background(), "tcp", "192.0.2.1:443") // takes the first turn
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := dial(ctx, "tcp", "192.0.2.1:443"); !errors.Is(err, context.Canceled) {
		t.Fatalf("error = %v, want context.Canceled", err)
	}
}
