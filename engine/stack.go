package engine

// turnFrame is the frame growStack takes: over half of 32 KiB, so the
// runtime gives the goroutine the 32 KiB a turn reaches.
const turnFrame = 20 << 10

// growStack grows a new goroutine's stack to what a turn needs, while
// the stack holds only the goroutine's first frame. A goroutine starts
// with 2 KiB and the runtime doubles its stack as calls go deeper,
// copying it and reading, for every frame on it, the tables the binary
// keeps about that frame's function. A turn's goroutine grew four times,
// up to about 50 frames deep, while it encoded its first events and
// request, and those reads brought about 0.4 MiB of the binary's tables
// into memory (a headless run's peak RSS, issue 33); grown here it is
// copied once with next to nothing on it. The frame is never written
// (empty is 0), so the stack's pages are touched only as calls use them.
//
//go:noinline
func growStack(empty int) {
	if empty > 0 {
		var room [turnFrame]byte
		keep(room[:])
	}
}

// keep uses b, so that growStack's frame is not optimised away.
//
//go:noinline
func keep(b []byte) { b[0] = 0 }
