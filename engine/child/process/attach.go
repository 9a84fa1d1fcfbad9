package process

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"syscall"

	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/event"
)

// Baton's side of detaching: a child process started with a Home outlives
// baton (see relay); Detach lets go of it, and a later baton finds it
// again with Attach.

// Detachable implements child.Attacher: a child whose session keeps a
// folder for it outlives baton, on Linux (its socket is an abstract one).
func (r *Runner) Detachable(job child.Job) bool {
	return job.Home != "" && runtime.GOOS == "linux"
}

// Detach implements child.Detacher: baton closes its ends of the child's
// line without an abort, and the child runs on, logging what it sends.
func (h *handle) Detach() error {
	h.mu.Lock()
	switch {
	case h.home == nil:
		h.mu.Unlock()
		return errors.New("this child process ends with baton")
	case h.result != nil:
		h.mu.Unlock()
		return errors.New("it has finished")
	}
	h.detached = true
	h.mu.Unlock()
	h.letLoose()
	return nil
}

// isDetached reports whether baton let go of the child.
func (h *handle) isDetached() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.detached
}

// tookLine notes, in the child's home, that its line seq was taken.
func (h *handle) tookLine(seq int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if seq != 0 && h.home != nil {
		h.home.took(seq)
	}
}

// takeAsk says whether to answer question id: not one replayed (it is
// asked again once the replay is over, if it is still open), nor one
// answered already.
func (h *handle) takeAsk(id int64) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.caught || h.asks[id] {
		return false
	}
	h.asks[id] = true
	return true
}

// Attach implements child.Attacher: it finds again the child of job that
// an earlier baton started, in job.Home. A child still running is
// attached to on its socket, and replays what no baton took; one that is
// not is read from its log, and ends with its result or, without one,
// interrupted with what it had reported.
func (r *Runner) Attach(ctx context.Context, job child.Job) (child.Handle, error) {
	home, err := openHome(job.Home)
	if err != nil {
		return nil, err
	}
	h := newHandle(job, "")
	h.home, h.stderr = home, home
	h.wait = func() error { return nil }
	nc, err := net.Dial("unix", "@"+home.socket)
	if err != nil {
		log, err := home.log()
		if err != nil {
			home.close()
			return nil, fmt.Errorf("find the child again: %w", err)
		}
		h.gone = true
		h.in, h.out = &lineWriter{w: io.Discard}, newLineReader(log)
		h.kill, h.letLoose = func() { _ = log.Close() }, func() { _ = log.Close() }
		go h.run(ctx, nil)
		return h, nil
	}
	h.in, h.out = &lineWriter{w: nc}, newLineReader(nc)
	h.kill = func() {
		killFound(home.pid, job.Spec.Meta.Agent)
		_ = nc.Close()
	}
	h.letLoose = func() { _ = nc.Close() }
	if err := h.in.write(down{Attach: &attach{Token: home.token, From: home.taken}}); err != nil {
		_ = nc.Close()
		home.close()
		return nil, fmt.Errorf("attach to the child: %w", err)
	}
	// Ends as Start's does: when the child has ended, or baton lets go
	// of it again.
	go h.run(ctx, nil)
	return h, nil
}

// killFound kills a child process another baton started, once its
// process is seen to be that child still (baton __child <id>), never a
// process that took its number since.
func killFound(pid int, id event.AgentID) {
	if pid <= 0 {
		return
	}
	cmdline, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
	if err != nil {
		return
	}
	args := bytes.Split(bytes.TrimRight(cmdline, "\x00"), []byte{0})
	if len(args) < 2 || string(args[len(args)-2]) != Subcommand || string(args[len(args)-1]) != string(id) {
		return
	}
	_ = syscall.Kill(pid, syscall.SIGKILL)
}

// started are the child processes of this baton that would outlive it,
// for KillAll.
var started = struct {
	sync.Mutex
	procs map[*os.Process]bool
}{procs: map[*os.Process]bool{}}

// track notes a detachable child process this baton started (on true)
// or that ended or was let go of (on false).
func track(p *os.Process, live bool) {
	started.Lock()
	defer started.Unlock()
	if live {
		started.procs[p] = true
	} else {
		delete(started.procs, p)
	}
}

// KillAll kills the child processes of this baton that would outlive
// it and that it has not let go of: the exit that cannot wait for them
// to report (a second signal) leaves none running that the person did
// not detach.
func KillAll() {
	started.Lock()
	defer started.Unlock()
	for p := range started.procs {
		_ = p.Kill()
	}
}

// Abandon stops the child in home that an earlier baton started, which
// this one cannot take up (its runner is not available here): it is
// killed, so none runs on that nobody can reach. A child no longer
// running, or a home without one, is left as it is.
func Abandon(home string, id event.AgentID) {
	h, err := openHome(home)
	if err != nil {
		return
	}
	h.close()
	killFound(h.pid, id)
}
