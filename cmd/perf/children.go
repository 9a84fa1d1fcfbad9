package main

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// childSampler watches the processes baton starts (the process runner's
// children) and keeps the peak resident set of each, read from /proc
// while they run: their rusage goes to baton, which reaps them, so the
// whole tree's figure never shows one child's.
type childSampler struct {
	root int // the launch helper's pid: baton is its child
	stop chan struct{}
	done chan struct{}

	mu   sync.Mutex
	peak map[int]int64 // KiB, by pid
}

// sampleChildren starts watching the grandchildren of root every 20 ms.
func sampleChildren(root int) *childSampler {
	s := &childSampler{root: root, stop: make(chan struct{}), done: make(chan struct{}), peak: map[int]int64{}}
	go func() {
		defer close(s.done)
		for {
			s.sample()
			select {
			case <-s.stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	return s
}

// sample reads the peak of every process whose parent's parent is root.
func (s *childSampler) sample() {
	parents := map[int]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if ppid, ok := parentOf(pid); ok {
			parents[pid] = ppid
		}
	}
	for pid, ppid := range parents {
		if parents[ppid] != s.root || ppid == s.root {
			continue
		}
		if hwm, ok := peakOf(pid); ok {
			s.mu.Lock()
			s.peak[pid] = max(s.peak[pid], hwm)
			s.mu.Unlock()
		}
	}
}

// finish stops watching and returns the median child's peak in KiB
// (negative: no child was seen).
func (s *childSampler) finish() int64 {
	close(s.stop)
	<-s.done
	s.mu.Lock()
	defer s.mu.Unlock()
	peaks := make([]int64, 0, len(s.peak))
	for _, p := range s.peak {
		peaks = append(peaks, p)
	}
	if len(peaks) == 0 {
		return -1
	}
	slices.Sort(peaks)
	return peaks[len(peaks)/2]
}

// parentOf reads a process's parent from /proc/PID/stat.
func parentOf(pid int) (int, bool) {
	stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return 0, false
	}
	i := strings.LastIndexByte(string(stat), ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(string(stat[i+1:]))
	if len(f) < 2 {
		return 0, false
	}
	ppid, err := strconv.Atoi(f[1])
	return ppid, err == nil
}

// peakOf reads a process's peak resident set (VmHWM) in KiB.
func peakOf(pid int) (int64, bool) {
	status, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	if err != nil {
		return 0, false
	}
	for line := range strings.SplitSeq(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kib, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kib, err == nil
		}
	}
	return 0, false
}
