// Command launch starts one measured run for cmd/perf and reports what
// the whole process tree cost, the way the operating system accounts a
// finished command. It exists because a measurement taken straight from
// cmd/perf is wrong in two ways:
//
//   - Peak RSS. Go starts a command with vfork semantics (the child shares
//     the parent's memory until it executes), and Linux carries the
//     parent's peak resident set into the child's ru_maxrss at that
//     exec. Every figure cmd/perf read was therefore at least cmd/perf's
//     own peak: a scripted server and a pty reader, heavier than a small
//     baton. launch is a small process, so its floor is about 2 MiB.
//   - Descendants. wait4 counts the children a process reaped; a
//     descendant it left behind (a server it started, a helper that
//     outlived it) is counted by nobody. launch makes itself the
//     subreaper of the tree, so orphans come back to it, and it reaps
//     them for a short while after the command ends.
//
// Usage: launch COMMAND [ARG...]; the report is one line of key=value
// pairs written to descriptor 3, and launch exits with the command's code.
package main

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// orphanGrace is how long launch keeps reaping descendants that outlived
// the command before it reports the ones still running.
const orphanGrace = time.Second

func main() {
	report := os.NewFile(3, "report")
	if len(os.Args) < 2 || report == nil {
		fmt.Fprintln(os.Stderr, "usage: launch COMMAND [ARG...] (report on descriptor 3)")
		os.Exit(2)
	}
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		fmt.Fprintf(os.Stderr, "launch: become subreaper: %v\n", err)
		os.Exit(2)
	}
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(os.Stderr, "launch: %v\n", err)
		os.Exit(127)
	}
	_ = cmd.Wait()
	wall := time.Since(start)
	left := reapOrphans(time.Now().Add(orphanGrace))
	var tree unix.Rusage
	_ = unix.Getrusage(unix.RUSAGE_CHILDREN, &tree)
	own, _ := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	fmt.Fprintf(report, "wall_ns=%d tree_cpu_ns=%d tree_maxrss_kib=%d cpu_ns=%d maxrss_kib=%d left=%d\n",
		wall.Nanoseconds(), tree.Utime.Nano()+tree.Stime.Nano(), tree.Maxrss,
		own.Utime.Nano()+own.Stime.Nano(), own.Maxrss, left)
	os.Exit(cmd.ProcessState.ExitCode())
}

// reapOrphans waits for the descendants the command left, which the
// kernel hands to launch as their subreaper, until none is left or the
// deadline passes; it returns how many were still running then.
func reapOrphans(deadline time.Time) int {
	for {
		var status unix.WaitStatus
		pid, err := unix.Wait4(-1, &status, unix.WNOHANG, nil)
		switch {
		case err == unix.ECHILD:
			return 0
		case err != nil && err != unix.EINTR:
			return 0
		case pid > 0:
			continue
		}
		if time.Now().After(deadline) {
			return countChildren()
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// countChildren counts launch's remaining children: the processes whose
// parent is launch, read from /proc.
func countChildren() int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return -1
	}
	n := 0
	for _, e := range entries {
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// The parent is the second field after the parenthesised name.
		rest := string(stat[strings.LastIndexByte(string(stat), ')')+1:])
		if f := strings.Fields(rest); len(f) > 1 && f[1] == strconv.Itoa(os.Getpid()) {
			n++
		}
	}
	return n
}
