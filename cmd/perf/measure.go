package main

import (
	"fmt"
	"io"
	"os/exec"
	"slices"
	"syscall"
	"time"
)

// sample is one whole-process run.
type sample struct {
	wall time.Duration
	cpu  time.Duration // user + system, the process and its reaped children
	rss  int64         // peak resident set, KiB
	// ttfb is the first stdout byte after the server's first token (or
	// after the start when no token was sent); negative when none came.
	ttfb time.Duration
	// path is the server's own time for the run (see criticalPath), and
	// lag how long after the fan-out the last child started (negative:
	// no children); both 0 for runs that never reach the server.
	path, lag time.Duration
}

// runOnce runs cmd to the end and measures it. serverFirst, when not nil,
// says when the server sent its first token.
func runOnce(cmd *exec.Cmd, serverFirst func() time.Time) (sample, error) {
	out, err := cmd.StdoutPipe()
	if err != nil {
		return sample{}, err
	}
	firstByte := make(chan time.Time, 1)
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return sample{}, fmt.Errorf("start %s: %w", cmd.Path, err)
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
	s := sample{wall: time.Since(start), ttfb: -1}
	if at, ok := <-firstByte; ok {
		from := start
		if serverFirst != nil && !serverFirst().IsZero() {
			from = serverFirst()
		}
		s.ttfb = at.Sub(from)
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		s.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		s.rss = ru.Maxrss
	}
	if waitErr != nil {
		return s, fmt.Errorf("%s: %w", cmd.Args, waitErr)
	}
	return s, nil
}

// summary is the medians of a case's samples.
type summary struct {
	wall, cpu, ttfb, path, lag time.Duration
	rss                        int64
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
		wall: time.Duration(pick(func(s sample) int64 { return int64(s.wall) })),
		cpu:  time.Duration(pick(func(s sample) int64 { return int64(s.cpu) })),
		ttfb: time.Duration(pick(func(s sample) int64 { return int64(s.ttfb) })),
		path: time.Duration(pick(func(s sample) int64 { return int64(s.path) })),
		lag:  time.Duration(pick(func(s sample) int64 { return int64(s.lag) })),
		rss:  pick(func(s sample) int64 { return s.rss }),
	}
}

// printRow writes one case's medians as a table row.
func printRow(w io.Writer, name string, m summary, extra string) {
	ttfb := "-"
	if m.ttfb >= 0 {
		ttfb = fmt.Sprintf("%.1f ms", float64(m.ttfb.Microseconds())/1000)
	}
	fmt.Fprintf(w, "%-28s %9.3f s %9.3f s %8.1f MiB %10s  %s\n", name, m.wall.Seconds(), m.cpu.Seconds(), float64(m.rss)/1024, ttfb, extra)
}
