package sandbox

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// tag starts the marker of every command this process runs (see TagRuns).
var tag atomic.Pointer[string]

// TagRuns marks every command this process runs from now on with t, so
// that the baton process that started this one can clean up after them
// if this one dies (Sweep, in that process). t is at most 13 letters and
// digits.
func TagRuns(t string) { tag.Store(&t) }

// runTag is the start of a run's marker: the tag and a dot, or nothing.
func runTag() string {
	if t := tag.Load(); t != nil && *t != "" {
		return *t + "."
	}
	return ""
}

// supervisorName is the name (comm) a supervisor of a run tagged t, or
// the probe of a process tagged t, takes: what Sweep knows it by, live or
// ended.
func supervisorName(t string) string { return "b:" + t }

// nameSupervisor names this supervisor (or probe) after its tag, if it
// has one.
func nameSupervisor() {
	if t, _, tagged := strings.Cut(os.Getenv(markerVar), "."); tagged && t != "" {
		_ = os.WriteFile("/proc/self/comm", []byte(supervisorName(t)), 0)
	}
}

// Sweep ends what the commands of a baton process that died left to
// this one, the subreaper: the supervisors of its runs tagged t came here
// when their parent died. Each sees its lifeline cut and ends its
// command's processes; Sweep waits for that (killing a supervisor that
// does not end within killGrace, with what is below it) and reaps them,
// so no command of that process runs on when it returns. A sandbox stage
// the process was starting as it died (forked, not yet run) ends by
// itself at once, having nothing to run, and may stay unreaped until
// baton exits.
func Sweep(t string) {
	if t == "" {
		return
	}
	name, self := supervisorName(t), os.Getpid()
	prefix := markerVar + "=" + t + "."
	// A supervisor is known by its name, which it keeps once it has
	// ended, or, just started and not named yet, by its run's marker.
	ours := func(pid int) bool {
		return commOf(pid) == name || hasEnvMatching(pid, func(kv string) bool { return strings.HasPrefix(kv, prefix) })
	}
	var ends []int
	for pid, ppid := range parents() {
		if ppid != self || !ours(pid) {
			continue
		}
		// The pidfd names the process for good; checked after it is
		// opened, the name cannot be a reused pid's.
		fd, err := unix.PidfdOpen(pid, 0)
		if err != nil {
			continue
		}
		if !ours(pid) {
			_ = unix.Close(fd)
			continue
		}
		ends = append(ends, fd, pid)
	}
	deadline := time.Now().Add(killGrace)
	var killed []int
	for i := 0; i < len(ends); i += 2 {
		fd, pid := ends[i], ends[i+1]
		if !waitExit(fd, time.Until(deadline)) {
			// It did not clean up in time: it and what is below it are
			// killed here, and each is waited for.
			for _, d := range descendants(pid) {
				if dfd, err := unix.PidfdOpen(d, 0); err == nil {
					_ = unix.PidfdSendSignal(dfd, unix.SIGKILL, nil, 0)
					killed = append(killed, dfd)
				}
			}
			_ = unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0)
		}
		killed = append(killed, fd)
	}
	for _, fd := range killed {
		waitExit(fd, killGrace)
		_ = unix.Waitid(unix.P_PIDFD, fd, nil, unix.WEXITED|unix.WNOHANG, nil) // reaps it if it came here
		_ = unix.Close(fd)
	}
}

// waitExit waits up to d for the process of pidfd fd to end, and reports
// whether it did.
func waitExit(fd int, d time.Duration) bool {
	poll := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	for d > 0 {
		start := time.Now()
		n, err := unix.Poll(poll, int(d.Milliseconds())+1)
		switch {
		case n > 0:
			return true
		case err != nil && !errors.Is(err, unix.EINTR):
			return false
		}
		d -= time.Since(start)
	}
	return false
}

// commOf is a process's name (comm) from /proc/PID/stat, which a process
// keeps after it ended until it is reaped.
func commOf(pid int) string {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	open, end := bytes.IndexByte(data, '('), bytes.LastIndexByte(data, ')')
	if err != nil || open < 0 || end < open {
		return ""
	}
	return string(data[open+1 : end])
}

// hasEnvMatching reports whether a process's environment holds a pair
// matching.
func hasEnvMatching(pid int, matching func(kv string) bool) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return false
	}
	for _, e := range bytes.Split(data, []byte{0}) {
		if matching(string(e)) {
			return true
		}
	}
	return false
}
