package main

import (
	"fmt"
	"os"
	"time"
)

// tracing, when set, prints every headless run's timeline: where its
// wall time goes beside the server's own time.
var tracing bool

// printTimeline writes one run's moments relative to its start: the
// process start, each request's arrival and end on the server, and the
// process's end, with the gap since the moment before.
func printTimeline(name string, run int, binary string, started, ended time.Time, marks []mark) {
	fmt.Fprintf(os.Stderr, "%s run %d (%s):\n", name, run, binary)
	last := started
	line := func(at time.Time, what string) {
		fmt.Fprintf(os.Stderr, "  %9.1f ms  +%7.1f  %s\n", ms(at.Sub(started)), ms(at.Sub(last)), what)
		last = at
	}
	line(started, "start")
	for _, m := range marks {
		line(m.at, m.what)
	}
	line(ended, "exit")
}
