package ui

import (
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// jobSignals says this system stops and continues jobs by signal.
const jobSignals = true

// continueSignal says a stopped job goes on.
const continueSignal = syscall.SIGCONT

// stopGrace bounds the wait for the continue after the job stopped
// itself: a stop the kernel discards (see stoppable) must not hang the UI.
// A stopped process runs no timers, so a long stop does not end it early.
const stopGrace = time.Second

// stopJob stops baton's job (its process group) as the shell's Ctrl+Z
// would, and returns once the job continues. The stop may be taken by
// another thread after kill returns, so the continue is what is waited
// for.
func stopJob() {
	cont := make(chan os.Signal, 1)
	signal.Notify(cont, syscall.SIGCONT)
	defer signal.Stop(cont)
	_ = syscall.Kill(0, syscall.SIGTSTP)
	select {
	case <-cont:
	case <-time.After(stopGrace):
	}
}

// stoppable reports whether a stop of baton's process group would be
// kept: the kernel discards SIGTSTP sent to an orphaned group, one with
// no member whose parent is in another group of the same session (a
// shell that could continue it). baton run straight by tmux or a
// terminal, as its session's leader, is such a group.
func stoppable() bool {
	group, session := syscall.Getpgrp(), sessionOf(os.Getpid())
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return false
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		st, ok := readStat(pid)
		if !ok || st.group != group {
			continue
		}
		if parent, ok := readStat(st.parent); ok && parent.session == session && parent.group != group {
			return true
		}
	}
	return false
}

// procStat is what stoppable reads of a process.
type procStat struct{ parent, group, session int }

// readStat reads /proc/PID/stat: after the command's name, in
// parentheses that it may itself contain, come the state, the parent,
// the process group and the session.
func readStat(pid int) (procStat, bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procStat{}, false
	}
	return parseStat(string(data))
}

// parseStat reads the fields stoppable needs from a /proc/PID/stat line.
func parseStat(s string) (procStat, bool) {
	end := strings.LastIndexByte(s, ')')
	if end < 0 {
		return procStat{}, false
	}
	f := strings.Fields(s[end+1:])
	if len(f) < 4 {
		return procStat{}, false
	}
	var st procStat
	var errs [3]error
	st.parent, errs[0] = strconv.Atoi(f[1])
	st.group, errs[1] = strconv.Atoi(f[2])
	st.session, errs[2] = strconv.Atoi(f[3])
	return st, errs[0] == nil && errs[1] == nil && errs[2] == nil
}

// sessionOf is the session of pid, or -1.
func sessionOf(pid int) int {
	if st, ok := readStat(pid); ok {
		return st.session
	}
	return -1
}
