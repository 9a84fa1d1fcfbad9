// Command baton is a full-screen terminal coding agent that delegates
// sub-tasks to sub-agents running in parallel; with -p it runs one turn
// headless and prints the answer. This package is wiring only: flags,
// environment, config files, exit codes and the headless printers.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/seed-e4e525a6/baton/engine/child/kube"
	"github.com/seed-e4e525a6/baton/engine/child/process"
	"github.com/seed-e4e525a6/baton/engine/rawio"
	"github.com/seed-e4e525a6/baton/engine/residency"
	"github.com/seed-e4e525a6/baton/engine/sandbox"
	"github.com/seed-e4e525a6/baton/ui"
)

func main() {
	// First of all: a sandbox stage, or a child placed in a process of
	// its own, runs and exits here, before anything else starts.
	sandbox.Main()
	process.Main()
	kube.PodMain()
	os.Exit(program(os.Args[1:]))
}

// program is baton as a process: the API key leaves the process
// environment (see hideKey) before anything can start a command, then the
// one signal path, the real streams and the terminal. Tests that start
// baton as a real process run it too.
func program(args []string) int {
	environ := os.Environ()
	// A working folder deleted under us leaves dir empty: help and
	// version still answer, and a run says the folder is gone.
	dir, _ := os.Getwd()
	line := parseCommandLine(args)
	runs := line.mayRunCommands()
	if runs {
		// What the packages' initialisation ran stays mapped otherwise:
		// a plain run's peak RSS 14.4 -> 12.3 MiB, for about 130 more
		// page faults. Help and version end before it would pay.
		residency.DropCode()
		environ = hideKey(environ)
		processProcs = newProcs(os.Getenv("GOMAXPROCS"))
	}
	stopProfile, err := startCPUProfile(os.Getenv("BATON_CPUPROFILE"))
	if err != nil {
		fmt.Fprintf(os.Stderr, "baton: BATON_CPUPROFILE: %v\n", err)
		return exitUsage
	}
	defer stopProfile()
	if !runs {
		// A run that prints and exits takes no terminal to give back and
		// has nothing to wind down on a signal, whose default action ends
		// it: neither the terminal nor the signal path is set up.
		return runCommandLine(context.Background(), dir, line, environ, os.Stdin, os.Stdout, os.Stderr, nil)
	}
	term := ui.NewTerminal(os.Stdin, os.Stdout)
	// The signals stay watched until the process exits, which it does as
	// program returns: releasing them first took three round trips to the
	// runtime's signal thread, 0.04 to 0.17 ms of CPU at every exit.
	ctx, _ := watchSignals(context.Background(), term.Restore)
	// A run prints as the answer streams, a write a gathering window:
	// written the usual way, each woke the runtime's monitor thread.
	return runCommandLine(ctx, dir, line, environ, os.Stdin, rawio.NewWriter(os.Stdout), rawio.NewWriter(os.Stderr), term)
}

// commandLine is the command line read once: which run it asks for, or
// why it is a usage error. Building the flag set is most of the work of
// reading it, so the process reads it once for both questions, whether to
// hide the key and what to run.
type commandLine struct {
	flags flagValues
	err   error
}

// parseCommandLine reads args (see parseFlags).
func parseCommandLine(args []string) commandLine {
	f, err := parseFlags(args)
	return commandLine{flags: f, err: err}
}

// mayRunCommands reports whether args lead to a run that may start a
// command: a turn, the TUI, MCP servers. Only those need hideKey, which
// costs a few /proc reads and, where scrubbing fails, a second start;
// the paths that just print and exit (help, version, a usage error, baton
// sessions, baton trust and untrust) skip it. prepare reads the same
// parsed flags, so the two cannot disagree.
func (c commandLine) mayRunCommands() bool {
	f := c.flags
	return c.err == nil && !f.help && !f.version && !f.sessions && f.trustCmd == ""
}
