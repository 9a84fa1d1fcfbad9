package llm

import (
	"context"
	"net"
	"sync"
	"time"
)

// dialSpacing is the least time between the starts of two new
// connections once the endpoint has shown it cannot take a burst.
// Children started together all connect in the same instant, and a server
// with a short accept queue (Python's default of 5, llama.cpp, small
// gateways) drops or resets what does not fit; a dropped connection is
// only tried again by the kernel a second later, then two, then four.
const dialSpacing = 10 * time.Millisecond

// dialBurstSlow is how long a connection may take to open while new
// connections start at once. A healthy endpoint answers within a round
// trip; one that has not by then most likely dropped the request from a
// full queue, so the dial is given up and made again, spaced.
const dialBurstSlow = 250 * time.Millisecond

// pacedDial starts new connections at once while the endpoint keeps up,
// so 64 children reach it together. The first dial that fails or takes
// longer than slow (a full accept queue) switches it, for the rest of the
// process, to starting connections at least spacing apart, and that dial
// is made again in its turn. A dial waiting for its turn gives up when
// its context ends.
func pacedDial(spacing, slow time.Duration, dial dialFunc) dialFunc {
	var (
		mu      sync.Mutex
		careful bool
		next    time.Time
	)
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		mu.Lock()
		spaced := careful
		mu.Unlock()
		if !spaced {
			bctx, cancel := context.WithTimeout(ctx, slow)
			conn, err := dial(bctx, network, addr)
			cancel()
			if err == nil || ctx.Err() != nil {
				return conn, err
			}
			mu.Lock()
			careful = true
			mu.Unlock()
		}
		mu.Lock()
		now, turn := time.Now(), next
		if turn.Before(now) {
			turn = now
		}
		next = turn.Add(spacing)
		mu.Unlock()
		if wait := turn.Sub(now); wait > 0 {
			timer := time.NewTimer(wait)
			select {
			case <-timer.C:
			case <-ctx.Done():
				timer.Stop()
				return nil, ctx.Err()
			}
		}
		return dial(ctx, network, addr)
	}
}
