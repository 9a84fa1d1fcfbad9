package sandbox

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// descendants lists the processes below root, from /proc. A process
// that exits while it is read is simply missed; callers scan again.
func descendants(root int) []int {
	children := map[int][]int{}
	for pid, ppid := range parents() {
		children[ppid] = append(children[ppid], pid)
	}
	var out []int
	queue := []int{root}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, c := range children[p] {
			out = append(out, c)
			queue = append(queue, c)
		}
	}
	return out
}

// parents maps each live process to its parent.
func parents() map[int]int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	out := make(map[int]int, len(entries))
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if ppid, ok := parentOf(pid); ok {
			out[pid] = ppid
		}
	}
	return out
}

// parentOf reads a process's parent from /proc/PID/stat, after the
// command name, which may itself hold spaces and parentheses.
func parentOf(pid int) (int, bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return 0, false
	}
	fields := strings.Fields(string(data[i+1:]))
	if len(fields) < 2 {
		return 0, false
	}
	ppid, err := strconv.Atoi(fields[1])
	return ppid, err == nil
}

// sweep kills and reaps what a supervisor that died before cleaning up
// left to baton (the subreaper): its adopted children carrying the run's
// marker, and everything below them.
func sweep(marker string) {
	self := os.Getpid()
	for pid, ppid := range parents() {
		if ppid != self || !hasEnv(pid, marker) {
			continue
		}
		for _, d := range descendants(pid) {
			_ = syscall.Kill(d, syscall.SIGKILL)
		}
		_ = syscall.Kill(pid, syscall.SIGKILL)
		var ws syscall.WaitStatus
		_, _ = syscall.Wait4(pid, &ws, 0, nil)
	}
}

// hasEnv reports whether a process's environment holds the pair kv.
func hasEnv(pid int, kv string) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return false
	}
	for _, e := range bytes.Split(data, []byte{0}) {
		if string(e) == kv {
			return true
		}
	}
	return false
}
