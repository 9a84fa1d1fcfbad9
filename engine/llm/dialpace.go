package llm

import (
	"context"
	"net"
	"sync"
	"time"
)

// dialSpacing is the least time between the starts of two new
// connections to the endpoint. Children started together would otherwise
// all connect in the same instant, and a server with a short accept queue
// (Python's default of 5, llama.cpp, small gateways) resets what does not
// fit; a burst of 32 takes a third of a second this way.
const dialSpacing = 10 * time.Millisecond

// pacedDial spreads the starts of new connections at least spacing
// apart; a dial whose turn has come starts at once, and one waiting for
// its turn gives up when its context ends.
func pacedDial(spacing time.Duration, dial dialFunc) dialFunc {
	var (
		mu   sync.Mutex
		next time.Time
	)
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
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
