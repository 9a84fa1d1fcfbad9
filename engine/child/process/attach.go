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

// Detachable implements child.Attacher: a child process of this machine
// whose session keeps a folder for it outlives baton, on Linux (its socket
// is an abstract one). One in a container does not (yet).
func (r *Runner) Detachable(job child.Job) bool {
	_, here := r.launcher().(Exec)
	return here && outlives(job)
}

// outlives says whether a child process of this machine started for job
// runs on without baton.
func outlives(job child.Job) bool {
	return job.Home != "" && runtime.GOOS == "linux"
}

// loose is a Proc that can run on without baton: a process of this
// machine in a session of its own.
type loose interface {
	Proc
	Pid() int
	// LetLoose closes baton's ends of its streams and lets it run on.
	LetLoose()
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
	if l, ok := h.proc.(loose); ok {
		track(l, false)
		l.LetLoose()
	}
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
	nc, err := net.Dial("unix", "@"+home.socket)
	if err == nil {
		// Anyone on the machine may listen on the name once the child
		// has gone: only the child itself is told the token and heard.
		if err = peerIsOurs(nc, home.pid); err != nil {
			_ = nc.Close()
		}
	}
	if err != nil {
		log, err := home.log()
		if err != nil {
			home.close()
			return nil, fmt.Errorf("find the child again: %w", err)
		}
		h.gone, h.proc = true, loggedProc{log}
		h.in, h.out = &lineWriter{w: io.Discard}, newLineReader(log)
		go h.run(ctx, nil)
		return h, nil
	}
	proc := attachedProc{nc: nc, pid: home.pid, name: home.processName(job.Spec.Meta.Agent)}
	h.proc, h.in, h.out = proc, &lineWriter{w: nc}, newLineReader(nc)
	if err := h.in.write(down{Attach: &attach{Token: home.token, From: home.taken}}); err != nil {
		_ = nc.Close()
		home.close()
		return nil, fmt.Errorf("attach to the child: %w", err)
	}
	track(proc, true)
	// Ends as Start's does: when the child has ended, or baton lets go
	// of it again.
	go h.run(ctx, nil)
	return h, nil
}

// attachedProc is a child process another baton started, reached on its
// socket.
type attachedProc struct {
	nc   net.Conn
	pid  int
	name string
}

func (p attachedProc) Stdin() io.WriteCloser { return p.nc }
func (p attachedProc) Stdout() io.Reader     { return p.nc }
func (p attachedProc) Wait() error           { return nil }

// Kill kills the process, once seen to be the child still, and hangs up.
func (p attachedProc) Kill() {
	killFound(p.pid, p.name)
	_ = p.nc.Close()
}

// Pid implements loose.
func (p attachedProc) Pid() int { return p.pid }

// LetLoose implements loose: baton hangs up and the child runs on.
func (p attachedProc) LetLoose() { _ = p.nc.Close() }

// loggedProc is a child that ended while no baton listened: its log.
type loggedProc struct{ log *os.File }

func (p loggedProc) Stdin() io.WriteCloser { return nopWriteCloser{} }
func (p loggedProc) Stdout() io.Reader     { return p.log }
func (p loggedProc) Kill()                 { _ = p.log.Close() }
func (p loggedProc) Wait() error           { return nil }

// nopWriteCloser takes nothing anywhere: nobody reads a log's input.
type nopWriteCloser struct{}

func (nopWriteCloser) Write(b []byte) (int, error) { return len(b), nil }
func (nopWriteCloser) Close() error                { return nil }

// killFound kills a child process another baton started, once its
// process is seen to be that child still (baton __child <name>, its id or
// its spare's name), never a process that took its number since.
func killFound(pid int, name string) {
	if pid <= 0 {
		return
	}
	cmdline, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
	if err != nil {
		return
	}
	args := bytes.Split(bytes.TrimRight(cmdline, "\x00"), []byte{0})
	if len(args) < 2 || string(args[len(args)-2]) != Subcommand || string(args[len(args)-1]) != name {
		return
	}
	_ = syscall.Kill(pid, syscall.SIGKILL)
}

// started are the child processes of this baton that would outlive it,
// for KillAll; the set is made by the first track (a map literal here
// would be built at every start).
var started struct {
	sync.Mutex
	procs map[loose]bool
}

// track notes a detachable child process this baton started (on true)
// or that ended or was let go of (on false).
func track(p loose, live bool) {
	started.Lock()
	defer started.Unlock()
	if live {
		if started.procs == nil {
			started.procs = map[loose]bool{}
		}
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
		p.Kill()
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
	killFound(h.pid, h.processName(id))
}
