// Package mainstack grows the main goroutine's stack, while it holds
// three frames, to the 128 KiB its initialisation reached when goldmark
// compiled a regular expression recursively. Grown as it went, it was
// copied six times, up to a hundred frames deep, and each copy read the
// binary's tables for every frame on it: about 1 MiB of them brought
// into memory (a headless run's peak RSS, issue 33). Without goldmark
// the stack still grows to 64 KiB (three copies without this package;
// --version peak RSS 11.6 MiB against 11.0 MiB with it).
//
// It imports nothing, so Go initialises it among the very first packages
// (it takes the first package ready, in import-path order): after the
// runtime's own and a few without imports, before the ones that grow the
// stack deeper. cmd/baton imports it through early.
package mainstack

// initFrame is the frame growStack takes: over half of 128 KiB, so the
// runtime gives the main goroutine 128 KiB.
const initFrame = 80 << 10

func init() { growStack(0) }

// growStack grows the calling goroutine's stack to take initFrame. The
// frame is never written (empty is 0), so the stack's pages are touched
// only as calls use them.
//
//go:noinline
func growStack(empty int) {
	if empty > 0 {
		var room [initFrame]byte
		keep(room[:])
	}
}

// keep uses b, so that growStack's frame is not optimised away.
//
//go:noinline
func keep(b []byte) { b[0] = 0 }
