package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"
)

// sample is one whole-process run.
type sample struct {
	wall time.Duration
	// cpu is user + system time of the whole process tree: baton, the
	// children it reaped, and any descendant that outlived it.
	cpu time.Duration
	rss int64 // peak resident set of the largest process in the tree, KiB
	// ttfb is the first stdout byte after the server's first token (or
	// after the start when no token was sent); negative when none came.
	ttfb time.Duration
	// path is the server's own time for the run (see criticalPath), and
	// lag how long after the fan-out the last child started (negative:
	// no children); both 0 for runs that never reach the server.
	path, lag time.Duration
	// extra is a case's own figure (a key's way to the screen, a
	// resume); negative when the case has none.
	extra time.Duration
	// childRSS is the median peak resident set of the child processes
	// baton started, KiB (negative: none was watched).
	childRSS int64
	// baseline is the case's baseline program's time (see perfCase).
	baseline time.Duration
	// started and ended are when cmd/perf started the run and saw it end.
	started, ended time.Time
}

// launched makes cmd run under the launch helper at launcher, which
// measures the whole process tree without cmd/perf's own memory in the
// figures; report reads what it measured once cmd has ended.
func launched(cmd *exec.Cmd, launcher string) (report func() (launchReport, error), err error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.Args = append([]string{launcher}, cmd.Args...)
	cmd.Path = launcher
	cmd.ExtraFiles = []*os.File{w}
	return func() (launchReport, error) {
		_ = w.Close()
		defer r.Close()
		line, err := io.ReadAll(r)
		if err != nil {
			return launchReport{}, err
		}
		return parseReport(string(line))
	}, nil
}

// launchReport is what the launch helper measured.
type launchReport struct {
	wall, cpu time.Duration
	rss       int64
	// left is how many descendants were still running a second after
	// the command ended (they are not in the figures).
	left int
}

// parseReport reads the launch helper's key=value line.
func parseReport(line string) (launchReport, error) {
	var rep launchReport
	seen := 0
	for _, field := range strings.Fields(line) {
		k, v, _ := strings.Cut(field, "=")
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return rep, fmt.Errorf("launch report %q: %w", line, err)
		}
		switch k {
		case "wall_ns":
			rep.wall, seen = time.Duration(n), seen+1
		case "tree_cpu_ns":
			rep.cpu, seen = time.Duration(n), seen+1
		case "tree_maxrss_kib":
			rep.rss, seen = n, seen+1
		case "left":
			rep.left = int(n)
		}
	}
	if seen != 3 {
		return rep, fmt.Errorf("launch report %q: incomplete", line)
	}
	return rep, nil
}

// runOnce runs cmd to the end and measures it. serverFirst, when not nil,
// says when the server sent its first token; watchChildren samples the
// memory of the child processes baton starts.
func runOnce(cmd *exec.Cmd, launcher string, serverFirst func() time.Time, watchChildren bool) (sample, error) {
	report, err := launched(cmd, launcher)
	if err != nil {
		return sample{}, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return sample{}, err
	}
	firstByte := make(chan time.Time, 1)
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return sample{}, fmt.Errorf("start %s: %w", cmd.Path, err)
	}
	var children *childSampler
	if watchChildren {
		children = sampleChildren(cmd.Process.Pid)
	}
	go func() {
		buf := make([]byte, 32<<10)
		first := true
		for {
			n, err := out.Read(buf)
			if n > 0 && first {
				firstByte <- time.Now()
				first = false
			}
			if err != nil {
				if first {
					close(firstByte)
				}
				return
			}
		}
	}()
	waitErr := cmd.Wait()
	ended := time.Now()
	rep, repErr := report()
	s := sample{wall: rep.wall, cpu: rep.cpu, rss: rep.rss, ttfb: -1, extra: -1, childRSS: -1, started: start, ended: ended}
	if children != nil {
		s.childRSS = children.finish()
	}
	if at, ok := <-firstByte; ok {
		from := start
		if serverFirst != nil && !serverFirst().IsZero() {
			from = serverFirst()
		}
		s.ttfb = at.Sub(from)
	}
	switch {
	case waitErr != nil:
		return s, fmt.Errorf("%s: %w", cmd.Args, waitErr)
	case repErr != nil:
		return s, repErr
	case rep.left > 0:
		fmt.Fprintf(os.Stderr, "perf: %s left %d processes running\n", cmd.Args, rep.left)
	}
	return s, nil
}

// summary is the medians of a case's samples.
type summary struct {
	wall, cpu, ttfb, path, lag, extra, baseline time.Duration
	rss, childRSS                               int64
}

// medians summarises samples figure by figure.
func medians(samples []sample) summary {
	pick := func(get func(sample) int64) int64 {
		vals := make([]int64, len(samples))
		for i, s := range samples {
			vals[i] = get(s)
		}
		slices.Sort(vals)
		return vals[len(vals)/2]
	}
	return summary{
		wall:     time.Duration(pick(func(s sample) int64 { return int64(s.wall) })),
		cpu:      time.Duration(pick(func(s sample) int64 { return int64(s.cpu) })),
		ttfb:     time.Duration(pick(func(s sample) int64 { return int64(s.ttfb) })),
		path:     time.Duration(pick(func(s sample) int64 { return int64(s.path) })),
		lag:      time.Duration(pick(func(s sample) int64 { return int64(s.lag) })),
		extra:    time.Duration(pick(func(s sample) int64 { return int64(s.extra) })),
		baseline: time.Duration(pick(func(s sample) int64 { return int64(s.baseline) })),
		rss:      pick(func(s sample) int64 { return s.rss }),
		childRSS: pick(func(s sample) int64 { return s.childRSS }),
	}
}

// median is the middle of durations (they are sorted in place).
func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return -1
	}
	slices.Sort(ds)
	return ds[len(ds)/2]
}
