package main

import (
	"runtime"
	"sync"

	"github.com/seed-e4e525a6/baton/cmd/baton/internal/early"
)

// childrenPerProc is how many running children add a processor.
const childrenPerProc = 16

// procs sizes the Go runtime's parallelism (GOMAXPROCS) by the work at
// hand. baton mostly waits on the network, and each wake-up that readies
// a goroutine while another processor idles also wakes a second thread
// to look for work; on a streamed answer those thread wake-ups are much
// of what baton costs (one processor: 15-30 % less CPU, measured with
// make perf). Many children streaming and running tools at once are real
// CPU work, so every childrenPerProc of them get a processor back, up to
// what the runtime would have used.
type procs struct {
	mu   sync.Mutex
	most int
	now  int
}

// newProcs starts the process on one processor, or returns nil when the
// person chose GOMAXPROCS themselves. A run is on one already, since its
// initialisation (see early), and keeps the processors it started with
// for its children.
func newProcs(chosen string) *procs {
	if chosen != "" {
		return nil
	}
	most, dropped := early.Processors()
	if !dropped {
		most = runtime.GOMAXPROCS(1)
	}
	return &procs{most: most, now: 1}
}

// running sizes the processors for children running at once.
func (p *procs) running(children int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	want := min(p.most, 1+children/childrenPerProc)
	if want != p.now {
		runtime.GOMAXPROCS(want)
		p.now = want
	}
}

// processProcs is the running process's procs, set by program before
// anything runs (nil in tests, which call run directly: their process's
// parallelism is the test runner's).
var processProcs *procs
