// Package oneproc puts a baton run on one processor before the other
// packages initialise. The runtime starts with a processor per CPU, and
// the packages' initialisation fills the cache of memory spans (one per
// size of object) of whichever processor the main goroutine is on.
// Dropping to one processor after that, as cmd/baton's procs did first
// thing in main, hands every span of a dropped processor back, which
// takes a page of bookkeeping per span, and the kept processor takes
// fresh spans of its own: up to 0.7 MiB of a headless run's memory, by
// where the scheduler happened to put the main goroutine. Done here,
// before almost anything has allocated, the drop costs next to nothing.
//
// Only cmd/baton imports it: its initialisation runs early because it
// imports nothing that needs initialising but the runtime, syscall and os.
package oneproc

import (
	"os"
	"runtime"
	"syscall"
)

// most is the runtime's processors before init took all but one (0: it
// did not).
var most int

func init() {
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

// Dropped returns the processors the runtime started with, and whether
// init dropped them to one.
func Dropped() (processors int, dropped bool) {
	return most, most != 0
}

// Undo gives the process the runtime's default processors back, as if
// init had not run: for tests, which run on the test runner's
// processors.
func Undo() {
	if most != 0 {
		most = 0
		runtime.SetDefaultGOMAXPROCS()
	}
}
