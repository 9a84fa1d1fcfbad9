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

// errNoNetwork is what the fake dials of these tests return.
var errNoNetwork = errors.New("no network in this test")

// A burst to an endpoint that keeps up starts at once: every dial is
// made without waiting for a turn.
func TestHealthyBurstDialsAtOnce(t *testing.T) {
	var (
		mu    sync.Mutex
		dials int
	)
	dial := pacedDial(time.Hour, time.Hour, func(context.Context, string, string) (net.Conn, error) {
		mu.Lock()
		dials++
		mu.Unlock()
		return &net.TCPConn{}, nil
	})
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			if _, err := dial(context.Background(), "tcp", "192.0.2.1:443"); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if dials != 16 {
		t.Fatalf("%d dials made, want 16", dials)
	}
}

// A dial that does not open in time (its request dropped from a full
// accept queue) is made again, and from then on a burst starts spread
// out: the i-th to start does so at least i spacings after the first.
func TestSlowDialMakesBurstsSpread(t *testing.T) {
	const spacing, burst = 5 * time.Millisecond, 8
	var (
		mu      sync.Mutex
		starts  []time.Time
		dropped bool
	)
	dial := pacedDial(spacing, time.Millisecond, func(ctx context.Context, _, _ string) (net.Conn, error) {
		mu.Lock()
		first := !dropped
		dropped = true
		mu.Unlock()
		if first { // the first request is dropped: no answer until given up
			<-ctx.Done()
			return nil, ctx.Err()
		}
		mu.Lock()
		starts = append(starts, time.Now())
		mu.Unlock()
		return nil, errNoNetwork
	})
	if _, err := dial(context.Background(), "tcp", "192.0.2.1:443"); !errors.Is(err, errNoNetwork) {
		t.Fatalf("the dropped dial was not made again: %v", err)
	}
	began := time.Now()
	starts = nil
	var wg sync.WaitGroup
	for range burst {
		wg.Go(func() { _, _ = dial(context.Background(), "tcp", "192.0.2.1:443") })
	}
	wg.Wait()
	slices.SortFunc(starts, func(a, b time.Time) int { return a.Compare(b) })
	for i, start := range starts {
		// The first turn after the redial is one spacing after it.
		if early := began.Add(time.Duration(i) * spacing).Sub(start); early > 0 {
			t.Fatalf("dial %d of the burst started %v before its turn", i, early)
		}
	}
}

// A dial waiting for its turn gives up when its context ends.
func TestPacedDialWaitEndsWithItsContext(t *testing.T) {
	dial := pacedDial(time.Hour, time.Hour, func(context.Context, string, string) (net.Conn, error) {
		return nil, errNoNetwork
	})
	_, _ = dial(context.Background(), "tcp", "192.0.2.1:443") // fails: careful from now on, and takes the first turn
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := dial(ctx, "tcp", "192.0.2.1:443"); !errors.Is(err, context.Canceled) {
		t.Fatalf("error = %v, want context.Canceled", err)
	}
}
