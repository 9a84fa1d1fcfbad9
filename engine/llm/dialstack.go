package llm

import (
	"context"
	"net"
)

// dialFrame is the frame growDialStack takes: enough that the dialing
// goroutine, on the 4 KiB net/http's dialConn grows it to, grows to the
// 8 KiB a dial reaches.
const dialFrame = 3 << 10

// roomyDial runs dial on a stack grown first, while it holds only
// net/http's few frames that called the dial. net/http dials on a
// goroutine of its own, which outgrew its stack deep in net's dial: the
// runtime copies a stack it grows, reading for every frame on it the
// binary's tables about that frame's function, so the copy brought in
// the tables of net, internal/poll, syscall and the runtime's allocator
// as well as net/http's (with the read's, see rawio's growReadStack,
// 0.5 MiB of a headless run's peak RSS, issue 33). Grown here the dial
// runs on without a copy.
func roomyDial(dial dialFunc) dialFunc {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		growDialStack(0)
		return dial(ctx, network, addr)
	}
}

// growDialStack grows the calling goroutine's stack to take dialFrame.
// The frame is never written (empty is 0), so the stack's pages are
// touched only as calls use them.
//
//go:noinline
func growDialStack(empty int) {
	if empty > 0 {
		var room [dialFrame]byte
		keep(room[:])
	}
}

// keep uses b, so that growDialStack's frame is not optimised away.
//
//go:noinline
func keep(b []byte) { b[0] = 0 }
