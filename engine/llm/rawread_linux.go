package llm

import (
	"errors"
	"io"
	"net"
	"os"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// rawReadConn is a TCP connection whose reads are raw system calls,
// waited for by the network poller as net's own are. A read made the
// usual way wakes the runtime's monitor thread when it sleeps (every
// system call entered so does, for the monitor to take the processor
// back from a long one), and the monitor then polls every 20 µs while
// the stream's chunk is decoded and drawn: ten wake-ups a window where
// one would do. A read of a socket the poller found ready never blocks,
// so it has no need of the monitor. Its errors are net's: the same
// *net.OpError around the same *os.SyscallError, io.EOF at the end.
type rawReadConn struct {
	*net.TCPConn
	raw syscall.RawConn
}

// rawReads wraps conn when it is a TCP connection with a reachable
// socket, and returns it as it is otherwise.
func rawReads(conn net.Conn) net.Conn {
	tc, ok := conn.(*net.TCPConn)
	if !ok {
		return conn
	}
	raw, err := tc.SyscallConn()
	if err != nil {
		return conn
	}
	return &rawReadConn{TCPConn: tc, raw: raw}
}

// Read implements net.Conn.
func (c *rawReadConn) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	var n uintptr
	var errno syscall.Errno
	err := c.raw.Read(func(fd uintptr) bool {
		for {
			n, _, errno = unix.RawSyscall(unix.SYS_READ, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
			if errno != unix.EINTR {
				return errno != unix.EAGAIN
			}
		}
	})
	switch {
	case err != nil:
		// The raw connection names its own operation ("raw-read").
		var op *net.OpError
		if errors.As(err, &op) {
			err = op.Err
		}
		return 0, &net.OpError{Op: "read", Net: "tcp", Source: c.LocalAddr(), Addr: c.RemoteAddr(), Err: err}
	case errno != 0:
		return 0, &net.OpError{Op: "read", Net: "tcp", Source: c.LocalAddr(), Addr: c.RemoteAddr(), Err: os.NewSyscallError("read", errno)}
	case n == 0:
		return 0, io.EOF
	}
	return int(n), nil
}
