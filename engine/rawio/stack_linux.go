package rawio

// readFrame is the frame growReadStack takes: enough that a goroutine
// on its first 2 KiB of stack grows to 4 KiB here, the room a read and
// what an HTTP reader does with it take.
const readFrame = 2 << 10

// growReadStack grows the calling goroutine's stack, when it is short of
// room, at the top of a Read, before the read goes down through net and
// internal/poll. A goroutine starts with 2 KiB, and net/http's reader of
// a connection (its readLoop) outgrew it in its first read, at the
// bottom: the runtime copies a stack it grows, reading for every frame
// on it the binary's tables about that frame's function, so a copy there
// brought in the tables of net, internal/poll and this package as well
// as net/http's and bufio's (a headless run's peak RSS, issue 33). Grown
// here the copy holds only the reader's own frames, whose tables the
// dial's copy has already brought in (see engine/llm's dial). A stack
// with the room takes the call for nothing. The frame is never written
// (empty is 0), so the stack's pages are touched only as calls use them.
//
//go:noinline
func growReadStack(empty int) {
	if empty > 0 {
		var room [readFrame]byte
		keep(room[:])
	}
}

// keep uses b, so that growReadStack's frame is not optimised away.
//
//go:noinline
func keep(b []byte) { b[0] = 0 }
