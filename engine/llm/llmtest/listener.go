package llmtest

import (
	"net"
	"sync/atomic"
)

// ResettingListener answers its first connections with a TCP reset before
// any byte, as a server whose short accept queue overflowed does, and
// serves the rest.
type ResettingListener struct {
	net.Listener
	left     atomic.Int64
	reset    atomic.Int64
	accepted atomic.Int64
}

// ResetFirst wraps ln so that its first n connections are accepted and
// closed at once with SO_LINGER 0, which sends an RST.
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
		_ = conn.Close()
	}
}

// ResetNext makes the next n connections be reset, from now on.
func (l *ResettingListener) ResetNext(n int) { l.left.Store(int64(n)) }

// Resets is how many connections were reset so far.
func (l *ResettingListener) Resets() int { return int(l.reset.Load()) }

// Accepted is how many connections were accepted so far, reset or not.
func (l *ResettingListener) Accepted() int { return int(l.accepted.Load()) }
