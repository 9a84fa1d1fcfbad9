// Package early sets the Go runtime up for a lean run before the other
// packages initialise, which is as early as a program can (only
// cmd/baton imports it, and it imports nothing that needs initialising
// but the runtime, syscall and os, so it initialises among the first).
// Each setting is about memory: a headless run's peak RSS (issue 33).
//
//   - One processor. The runtime starts with one per CPU, and the
//     packages' initialisation fills the cache of memory spans (one per
//     size of object) of whichever processor the main goroutine is on.
//     Dropping to one processor after that, as cmd/baton's procs did in
//     main, hands every span of a dropped processor back, which takes a
//     page of bookkeeping per span, and the kept processor takes fresh
//     spans of its own: up to 0.7 MiB, by where the scheduler happened to
//     put the main goroutine. Here it costs next to nothing.
//   - The main goroutine's stack at the size initialisation reaches
//     (goldmark compiles a regular expression recursively), grown while
//     it holds three frames. Grown as it went, it was copied six times,
//     up to a hundred frames deep, each copy reading the binary's tables
//     for every frame: about 1 MiB of them.
package early

import (
	"os"
	"runtime"
	"syscall"
)

// most is the runtime's processors before init took all but one (0: it
// did not).
var most int

func init() {
	growStack(0)
	// A person who chose GOMAXPROCS keeps their choice, and baton's own
	// processes (a sandbox stage, a child: a first argument with two
	// underscores) start as the runtime starts them.
	if chosen, _ := syscall.Getenv("GOMAXPROCS"); chosen != "" {
		return
	}
	if len(os.Args) > 1 && len(os.Args[1]) > 2 && os.Args[1][:2] == "__" {
		return
	}
	most = runtime.GOMAXPROCS(1)
}

// Processors returns the processors the runtime started with, and
// whether init dropped them to one.
func Processors() (processors int, dropped bool) {
	return most, most != 0
}

// Undo gives the process the runtime's default processors back, as if
// init had not dropped them: for tests, which run on the test runner's
// processors.
func Undo() {
	if most != 0 {
		most = 0
		runtime.SetDefaultGOMAXPROCS()
	}
}

// initFrame is the frame growStack takes: over half of 128 KiB, so the
// runtime gives the main goroutine the 128 KiB its initialisation grows
// it to.
const initFrame = 80 << 10

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
