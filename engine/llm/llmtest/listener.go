package llmtest

import (
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// ResettingListener answers its first connections with a TCP reset before
// any byte of a reply, as a server whose short accept queue overflowed
// does, and serves the rest.
//
// A reset connection is held until the client's request arrives on it (or
// a second passes), then reset: a reset that came before the request was
// written could be retried by net/http on a fresh connection on its own,
// and which of the two happened would depend on the scheduler.
type ResettingListener struct {
	net.Listener
	left     atomic.Int64
	reset    atomic.Int64
	accepted atomic.Int64

	mu      sync.Mutex
	pending map[net.Conn]struct{}
	wg      sync.WaitGroup
}

// ResetFirst wraps ln so that its first n connections are accepted and
// closed with SO_LINGER 0, which sends an RST, when their request arrives.
func ResetFirst(ln net.Listener, n int) *ResettingListener {
	l := &ResettingListener{Listener: ln}
	l.left.Store(int64(n))
	return l
}

// Accept implements net.Listener.
func (l *ResettingListener) Accept() (net.Conn, error) {
	for {
		conn, err := l.Listener.Accept()
		if err != nil {
			return conn, err
		}
		l.accepted.Add(1)
		if l.left.Add(-1) < 0 {
			return conn, nil
		}
		if tc, ok := conn.(*net.TCPConn); ok {
			_ = tc.SetLinger(0)
		}
		l.reset.Add(1) // counted before the client can see it
		l.resetOnRequest(conn)
	}
}

// resetOnRequest closes conn, with its linger at 0, once the client has
// written to it, without holding up the accept loop.
func (l *ResettingListener) resetOnRequest(conn net.Conn) {
	l.mu.Lock()
	if l.pending == nil {
		l.pending = map[net.Conn]struct{}{}
	}
	l.pending[conn] = struct{}{}
	l.mu.Unlock()
	l.wg.Add(1)
	go func() {
		defer l.wg.Done()
		_ = conn.SetReadDeadline(time.Now().Add(time.Second))
		var b [1]byte
		_, _ = conn.Read(b[:])
		l.mu.Lock()
		delete(l.pending, conn)
		l.mu.Unlock()
		_ = conn.Close()
	}()
}

// Close stops listening, resets the connections still waiting for their
// request and waits until they are.
func (l *ResettingListener) Close() error {
	err := l.Listener.Close()
	l.mu.Lock()
	for conn := range l.pending {
		_ = conn.SetReadDeadline(time.Now())
	}
	l.mu.Unlock()
	l.wg.Wait()
	return err
}

// ResetNext makes the next n connections be reset, from now on.
func (l *ResettingListener) ResetNext(n int) { l.left.Store(int64(n)) }

// Resets is how many connections were reset so far.
func (l *ResettingListener) Resets() int { return int(l.reset.Load()) }

// Accepted is how many connections were accepted so far, reset or not.
func (l *ResettingListener) Accepted() int { return int(l.accepted.Load()) }
