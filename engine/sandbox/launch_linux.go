package sandbox

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"sync/atomic"
	"syscall"

	"golang.org/x/sys/unix"
)

// The hidden first arguments that start the two sandbox stages.
const (
	superviseArg = "__baton_sandbox_supervise"
	restrictArg  = "__baton_sandbox_exec"
)

// maxSpec bounds the launch spec the supervisor reads.
const maxSpec = 1 << 20

// launcherReady is set by Main in a program that dispatches the stages.
var launcherReady atomic.Bool

// spec is what the supervisor and the restricting stage need.
type spec struct {
	Policy    Policy `json:"policy"`
	Sandboxed bool   `json:"sandboxed"`
	Shell     string `json:"shell"`
	Script    string `json:"script"`
	// Sockets are the sockets an isolated supervisor covers.
	Sockets []string `json:"sockets"`
	// OwnNetwork says the supervisor started in a network namespace of
	// its own, with no way out.
	OwnNetwork bool `json:"own_network"`
	// Filter is what the seccomp filter refuses, decided by the
	// supervisor for the restricting stage.
	Filter socketFilter `json:"filter"`
}

// Main runs a sandbox stage and exits when the process was started as
// one; otherwise it makes the process a child subreaper, so that what a
// command leaves behind is adopted by baton rather than init, and
// returns. Call it first thing in main, and in TestMain of tests that run
// commands.
func Main() {
	if len(os.Args) >= 2 {
		switch os.Args[1] {
		case superviseArg:
			os.Exit(supervise())
		case restrictArg:
			os.Exit(restrictAndExec(os.Args[2:]))
		case probeArg:
			os.Exit(runProbe())
		case terminalArg:
			os.Exit(superviseTerminal(os.Args[2:]))
		}
	}
	_ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
	launcherReady.Store(true)
}

// supervise is the first stage: a subreaper outside the sandbox that
// starts the restricted shell, waits for it or for baton to cut the
// lifeline (fd 3), then kills and reaps every process below it and
// reports the shell's wait status to baton (fd 4). Started isolated, it
// is PID 1 of the command's namespaces: it mounts the /proc the command
// sees, and the kernel keeps everything the command starts inside.
func supervise() int {
	nameSupervisor()
	// Descriptors baton inherited, and these two, reach no command.
	if unix.CloseRange(3, math.MaxUint32, unix.CLOSE_RANGE_CLOEXEC) != nil {
		syscall.CloseOnExec(3)
		syscall.CloseOnExec(4)
	}
	ctl, report := os.NewFile(3, "control"), os.NewFile(4, "report")
	if ctl == nil || report == nil {
		return fail(errors.New("no control pipes"))
	}
	line, err := bufio.NewReaderSize(io.LimitReader(ctl, maxSpec), 64<<10).ReadBytes('\n')
	if err != nil {
		return fail(fmt.Errorf("read launch spec: %w", err))
	}
	var s spec
	if err := json.Unmarshal(line, &s); err != nil {
		return fail(fmt.Errorf("read launch spec: %w", err))
	}
	// Signals from the command cannot stop the cleaning up; baton asks
	// for it through the lifeline, never by signal.
	signal.Notify(make(chan os.Signal, 1))
	isolated := os.Getpid() == 1
	if isolated {
		if err := ownProc(); err != nil {
			fmt.Fprintf(os.Stderr, "baton sandbox: other processes visible: %v\n", err)
		}
		if s.Sandboxed {
			if err := hold(s.Policy.Pinned, s.Policy.Protected, s.Sockets); err != nil {
				return fail(err)
			}
		}
	}
	if s.Sandboxed && filterAvailable() {
		s.Filter = socketFilter{Unix: !isolated && abi() < 9, Network: !s.Policy.Network && !s.OwnNetwork}
	}
	if line, err = json.Marshal(s); err != nil {
		return fail(fmt.Errorf("pass launch spec: %w", err))
	}
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return fail(fmt.Errorf("become subreaper: %w", err))
	}
	lifeline := make(chan struct{})
	// Ends when baton closes the pipe (cancel, timeout) or dies.
	go func() {
		_, _ = io.Copy(io.Discard, ctl)
		close(lifeline)
	}()
	pid, err := startRestricted(line, isolated)
	if err != nil {
		return fail(err)
	}
	reaped := make(chan reapedProc)
	go reapAll(reaped)
	status, cancelled := waitShell(pid, reaped, lifeline)
	if isolated {
		killNamespace(reaped)
	} else {
		killDescendants(reaped)
	}
	if cancelled {
		return 137
	}
	_, _ = report.WriteString(strconv.Itoa(int(status)))
	if status.Signaled() {
		return 128 + int(status.Signal())
	}
	return status.ExitStatus()
}

// reapedProc is one child the reaper collected.
type reapedProc struct {
	pid    int
	status syscall.WaitStatus
}

// reapAll waits for every child, its own and adopted ones, and closes
// out when none is left (ECHILD): as a subreaper, no child means no
// descendant.
func reapAll(out chan<- reapedProc) {
	defer close(out)
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &ws, 0, nil)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return
		}
		out <- reapedProc{pid, ws}
	}
}

// waitShell waits for the shell's exit or the lifeline's end.
func waitShell(pid int, reaped <-chan reapedProc, lifeline <-chan struct{}) (syscall.WaitStatus, bool) {
	for {
		select {
		case r, ok := <-reaped:
			if !ok {
				return 0, false
			}
			if r.pid == pid {
				return r.status, false
			}
		case <-lifeline:
			return 0, true
		}
	}
}

// killDescendants kills every process below the supervisor, again after
// each one reaped (a dying parent's children are adopted), until the
// reaper finds no child at all.
func killDescendants(reaped <-chan reapedProc) {
	for {
		for _, pid := range descendants(os.Getpid()) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		if _, ok := <-reaped; !ok {
			return
		}
	}
}

// restrictAndExec is the second stage: it applies the policy to this
// thread (Landlock, no_new_privs) and replaces itself with the shell, so
// nothing unconfined runs the command.
func restrictAndExec(args []string) int {
	runtime.LockOSThread()
	if len(args) != 1 {
		return fail(errors.New("restrict: expected one launch spec"))
	}
	var s spec
	if err := json.Unmarshal([]byte(args[0]), &s); err != nil {
		return fail(fmt.Errorf("restrict: read launch spec: %w", err))
	}
	if s.Sandboxed {
		if err := dropCapabilities(); err != nil {
			return fail(err)
		}
		if err := restrict(s.Policy); err != nil {
			return fail(err)
		}
		if err := s.Filter.install(); err != nil {
			return fail(err)
		}
	}
	err := syscall.Exec(s.Shell, []string{s.Shell, "-c", s.Script}, os.Environ())
	fmt.Fprintf(os.Stderr, "baton sandbox: exec %s: %v\n", s.Shell, err)
	return 127
}

// fail reports a stage's failure where the command's output goes: the
// command did not run, and the model must know why.
func fail(err error) int {
	fmt.Fprintf(os.Stderr, "baton sandbox: %v\n", err)
	return 126
}
