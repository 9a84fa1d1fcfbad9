package rawio

import (
	"errors"
	"io"
	"net"
	"os"
	"sync"
	"syscall"
	"unsafe"
)

// Conn returns c reading with raw system calls, or c itself when it is
// not a socket the network poller waits on. Everything else about c is
// as it was: its writes, deadlines and Close (a read waiting on the
// poller ends with the deadline or the Close, as c's own would), and the
// socket under it, which SyscallConn still reaches.
func Conn(c net.Conn) net.Conn {
	sc, ok := c.(syscall.Conn)
	if !ok {
		return c
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return c
	}
	rc := &conn{Conn: c, raw: raw, sc: sc, mark: 1}
	rc.readFn = rc.readRaw
	return rc
}

// conn is a socket read through its RawConn: the read itself is a raw
// system call on the non-blocking socket, and the poller waits when
// nothing has arrived.
type conn struct {
	net.Conn
	raw syscall.RawConn
	sc  syscall.Conn

	mu sync.Mutex
	// mark is the socket's low-water mark (SO_RCVLOWAT) as last set;
	// the kernel's default is 1.
	mark int32

	// reading holds one Read's buffer and result for readFn (readRaw,
	// bound once), so a read allocates nothing.
	reading sync.Mutex
	p       []byte
	n       int
	errno   syscall.Errno
	readFn  func(fd uintptr) bool
}

// Read reads what has arrived, waiting on the poller when nothing has,
// with the results c's own Read gives: io.EOF when the peer closed,
// *net.OpError otherwise.
func (c *conn) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	growReadStack(0)
	c.reading.Lock()
	c.p = p
	err := c.raw.Read(c.readFn)
	n, errno := c.n, c.errno
	c.p = nil
	c.reading.Unlock()
	switch {
	case err != nil:
		// The wait ended: the deadline passed or the connection was
		// closed. The poller's error, as c's own Read names it.
		var op *net.OpError
		if errors.As(err, &op) {
			err = op.Err
		}
		return 0, c.opError(err)
	case errno != 0:
		return 0, c.opError(os.NewSyscallError("read", errno))
	case n == 0:
		return 0, io.EOF
	}
	readSeen(p[:n])
	return n, nil
}

// readRaw reads what the socket fd holds into c.p; false asks the
// poller to wait for more.
func (c *conn) readRaw(fd uintptr) bool {
	c.n, c.errno = readNow(fd, c.p)
	if c.errno == syscall.EAGAIN && c.loosen(fd) {
		// Bytes that came before the mark fell are there now.
		c.n, c.errno = readNow(fd, c.p)
	}
	return c.errno != syscall.EAGAIN
}

// readNow is one read(2) of what fd holds, retried when a signal
// interrupts it.
func readNow(fd uintptr, p []byte) (int, syscall.Errno) {
	for {
		n, _, errno := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
		if errno != syscall.EINTR {
			return int(n), errno
		}
	}
}

// opError is err as net names a failed read.
func (c *conn) opError(err error) error {
	return &net.OpError{Op: "read", Net: c.LocalAddr().Network(), Source: c.LocalAddr(), Addr: c.RemoteAddr(), Err: err}
}

// SyscallConn reaches the socket under the connection.
func (c *conn) SyscallConn() (syscall.RawConn, error) { return c.sc.SyscallConn() }

// Quiet keeps the socket under c from waking the process until at least
// bytes have arrived, and reports whether it could: c, or the connection
// under its TLS, must come from Conn. A stream read once per window
// sleeps with its socket quiet: otherwise every chunk the endpoint sends
// wakes the network poller, which finds nobody reading and sleeps again.
// A read returns what has arrived whatever the mark, so the mark holds
// from one window to the next, without a system call to set it and one
// to clear it each window; the first read that finds nothing lowers it
// to one byte again before it waits, so a read that has to wait is never
// held back by it.
func Quiet(c net.Conn, bytes int) bool {
	if tc, ok := c.(interface{ NetConn() net.Conn }); ok {
		c = tc.NetConn()
	}
	rc, ok := c.(*conn)
	if !ok {
		return false
	}
	mark := int32(min(max(bytes, 1), 1<<30))
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if rc.mark == mark {
		return true
	}
	set := false
	if err := rc.raw.Control(func(fd uintptr) { set = setLowWater(fd, mark) }); err != nil || !set {
		return false
	}
	rc.mark = mark
	return true
}

// loosen lowers the mark to one byte, the kernel's default, and reports
// whether it was higher.
func (c *conn) loosen(fd uintptr) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.mark == 1 || !setLowWater(fd, 1) {
		return false
	}
	c.mark = 1
	return true
}

// setLowWater sets the socket's SO_RCVLOWAT. A raw call too: setsockopt
// never blocks.
func setLowWater(fd uintptr, bytes int32) bool {
	_, _, errno := syscall.RawSyscall6(syscall.SYS_SETSOCKOPT, fd, syscall.SOL_SOCKET, syscall.SO_RCVLOWAT,
		uintptr(unsafe.Pointer(&bytes)), unsafe.Sizeof(bytes), 0)
	return errno == 0
}
