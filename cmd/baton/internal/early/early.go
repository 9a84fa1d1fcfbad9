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
//     (see mainstack, which initialises earlier still).
package early

import (
	"os"
	"runtime"
	"syscall"

	_ "github.com/seed-e4e525a6/baton/cmd/baton/internal/mainstack"
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
