package main

import (
	"io"
	"os"
	"strings"
	"testing"
	"time"
)

// A case's figure is the median of its runs, figure by figure: one slow
// run (a loaded moment) moves none of them, and each figure's median is
// taken on its own, not the run with the median wall time.
func TestMediansAreTakenFigureByFigure(t *testing.T) {
	runs := []sample{
		{wall: 3 * time.Second, cpu: 50 * time.Millisecond, rss: 16000, ttfb: time.Millisecond, extra: -1, childRSS: -1},
		{wall: 9 * time.Second, cpu: 40 * time.Millisecond, rss: 15000, ttfb: 5 * time.Millisecond, extra: -1, childRSS: -1},
		{wall: 4 * time.Second, cpu: 900 * time.Millisecond, rss: 99000, ttfb: 2 * time.Millisecond, extra: -1, childRSS: -1},
	}
	m := medians(runs)
	if m.wall != 4*time.Second || m.cpu != 50*time.Millisecond || m.rss != 16000 || m.ttfb != 2*time.Millisecond {
		t.Fatalf("medians %+v, want wall 4s, cpu 50ms, rss 16000, ttfb 2ms", m)
	}
	if m.extra != -1 || m.childRSS != -1 {
		t.Fatalf("a figure no run had is %v/%v, want -1 (none)", m.extra, m.childRSS)
	}
}

// median picks the middle of an odd count, the upper middle of an even
// one, and says -1 when there is nothing to pick from.
func TestMedian(t *testing.T) {
	for _, c := range []struct {
		in   []time.Duration
		want time.Duration
	}{
		{nil, -1},
		{[]time.Duration{7}, 7},
		{[]time.Duration{9, 1, 5}, 5},
		{[]time.Duration{4, 1, 3, 2}, 3},
	} {
		if got := median(c.in); got != c.want {
			t.Errorf("median(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}

// The launch helper's line is read field by field; a line missing one of
// the three figures, or with a figure that is not a number, is an error,
// never a run of zero cost.
func TestParseReport(t *testing.T) {
	rep, err := parseReport("wall_ns=3200000000 tree_cpu_ns=48000000 tree_maxrss_kib=16800 cpu_ns=47000000 maxrss_kib=16700 left=1\n")
	if err != nil {
		t.Fatal(err)
	}
	if rep.wall != 3200*time.Millisecond || rep.cpu != 48*time.Millisecond || rep.rss != 16800 || rep.left != 1 {
		t.Fatalf("read %+v", rep)
	}
	for _, bad := range []string{
		"",
		"wall_ns=1 tree_cpu_ns=2",
		"wall_ns=1 tree_cpu_ns=x tree_maxrss_kib=3",
		"launch: exec: no such file",
	} {
		if _, err := parseReport(bad); err == nil {
			t.Errorf("parseReport(%q) read a report", bad)
		}
	}
}

// Each target reads its own figure and bounds it; the share of a core is
// the CPU over the wall time.
func TestTargetsReadTheirFigures(t *testing.T) {
	m := summary{wall: 4 * time.Second, cpu: 80 * time.Millisecond, rss: 13 * 1024, path: 2 * time.Second, extra: 30 * time.Millisecond}
	for _, c := range []struct {
		tg          target
		value, over float64
	}{
		{cpuAtMost(0.05), 0.08, 1.6},
		{rssAtMost(13), 13, 1},
		{wallOverPathAtMost(1.02), 2, 2 / 1.02},
		{shareAtMost(3), 2, 2.0 / 3},
		{extraAtMost("key→screen", 50*time.Millisecond), 30, 0.6},
	} {
		if v := c.tg.value(m); !near(v, c.value) || !near(v/c.tg.limit, c.over) {
			t.Errorf("%s: value %v (ratio %v), want %v (ratio %v)", c.tg.figure, v, v/c.tg.limit, c.value, c.over)
		}
	}
}

func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }

// stdout runs f and returns what it printed.
func stdout(t *testing.T, f func()) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	saved := os.Stdout
	os.Stdout = w
	done := make(chan string)
	go func() {
		b, _ := io.ReadAll(r)
		done <- string(b)
	}()
	f()
	os.Stdout = saved
	w.Close()
	return <-done
}

// A row says the medians, the case's own figure and each target as the
// ratio of figure to bound, so a ratio above 1 is a target missed.
func TestRowPrintsFiguresAndRatios(t *testing.T) {
	headless := perfCase{name: "paced-300-words", script: script{words: 300}, targets: []target{cpuAtMost(0.05)}}
	row := stdout(t, func() {
		printRow(headless, summary{wall: 3300 * time.Millisecond, cpu: 60 * time.Millisecond, rss: 16 * 1024,
			ttfb: 300 * time.Microsecond, path: 3 * time.Second, lag: -1, extra: -1, childRSS: -1})
	})
	for _, want := range []string{"paced-300-words", "3.300 s", "0.060 s", "16.0 MiB", "0.3 ms", "wall/path 1.100", "cpu ≤ 0.05 s: 1.20"} {
		if !strings.Contains(row, want) {
			t.Errorf("row %q lacks %q", row, want)
		}
	}
	tui := perfCase{name: "tui-8-panes-paced", tui: true, script: script{children: 8}, targets: []target{shareAtMost(3)}}
	row = stdout(t, func() {
		printRow(tui, summary{wall: 8 * time.Second, cpu: 200 * time.Millisecond, rss: 23 * 1024, ttfb: -1, lag: -1, extra: -1, childRSS: -1})
	})
	for _, want := range []string{"2.50 % of a core", "share ≤ 3 %: 0.83"} {
		if !strings.Contains(row, want) {
			t.Errorf("row %q lacks %q", row, want)
		}
	}
	if strings.Contains(row, "children +") || !strings.Contains(row, "MiB         -") {
		t.Errorf("a TUI row says a headless figure (time to first byte, children): %q", row)
	}
}

// The cases are the performance issues' targets: every name is unique
// (so -cases picks one), and the paced cases pace as the issue says,
// 300 words at 10 ms (paced-300-slow the same words at 25 ms: what a
// second of a longer stream costs).
func TestCasesAreTheIssuesTargets(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range cases(&server{}) {
		if seen[c.name] {
			t.Errorf("two cases are named %s", c.name)
		}
		seen[c.name] = true
		pace := 10 * time.Millisecond
		if strings.HasSuffix(c.name, "-slow") {
			pace = 25 * time.Millisecond
		}
		if strings.Contains(c.name, "paced-300") && (c.script.words != 300 || c.script.pace != pace) {
			t.Errorf("%s streams %d words at %v, want 300 at %v", c.name, c.script.words, c.script.pace, pace)
		}
	}
	for _, name := range []string{"paced-300-words", "paced-300-slow", "tui-paced-300-words", "tui-8-panes-paced", "tui-idle-10s", "fanout-64"} {
		if !seen[name] {
			t.Errorf("no case %s", name)
		}
	}
}
