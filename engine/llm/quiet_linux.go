package llm

import (
	"net"
	"syscall"
	"unsafe"
)

// quietWhile keeps conn's socket from waking the process until at least
// bytes have arrived, and returns what makes it wake for every byte
// again. A gathering stream holds its socket quiet while it sleeps to the
// window's end: without that, every chunk the endpoint sends wakes the
// runtime's network poller, which finds nobody reading and sleeps again,
// so a paced reply cost a wake-up per chunk even while it was read once
// per window. A read that returns what has arrived is not held back by
// the mark, but a read that has to wait would be, so the caller restores
// it before reading. A connection without a socket it can reach is left
// as it is.
func quietWhile(conn net.Conn, bytes int) (restore func()) {
	raw := rawSocket(conn)
	if raw == nil {
		return func() {}
	}
	lowWater := func(n int32) {
		_ = raw.Control(func(fd uintptr) {
			// A raw call: setsockopt never blocks, and the runtime's
			// bookkeeping around a blocking call (waking its monitor
			// thread) costs more than the call, twice a window.
			_, _, _ = syscall.RawSyscall6(syscall.SYS_SETSOCKOPT, fd, syscall.SOL_SOCKET, syscall.SO_RCVLOWAT,
				uintptr(unsafe.Pointer(&n)), unsafe.Sizeof(n), 0)
		})
	}
	lowWater(int32(min(bytes, 1<<30)))
	return func() { lowWater(1) }
}

// rawSocket is conn's socket, seen through TLS; nil when it has none.
func rawSocket(conn net.Conn) syscall.RawConn {
	if tc, ok := conn.(interface{ NetConn() net.Conn }); ok {
		conn = tc.NetConn()
	}
	sc, ok := conn.(syscall.Conn)
	if !ok {
		return nil
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return nil
	}
	return raw
}
