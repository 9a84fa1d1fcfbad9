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
	runs := mayRunCommands(args)
	if runs {
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
		return run(context.Background(), dir, args, environ, os.Stdin, os.Stdout, os.Stderr, nil)
	}
	term := ui.NewTerminal(os.Stdin, os.Stdout)
	ctx, stop := watchSignals(context.Background(), term.Restore)
	defer stop()
	// A run prints as the answer streams, a write a gathering window:
	// written the usual way, each woke the runtime's monitor thread.
	return run(ctx, dir, args, environ, os.Stdin, rawio.NewWriter(os.Stdout), rawio.NewWriter(os.Stderr), term)
}

// mayRunCommands reports whether args lead to a run that may start a
// command: a turn, the TUI, MCP servers. Only those need hideKey, which
// costs a few /proc reads and, where scrubbing fails, a second start;
// the paths that just print and exit (help, version, a usage error, baton
// sessions, baton trust and untrust) skip it. It reads the flags as prepare does, so the two cannot disagree.
func mayRunCommands(args []string) bool {
	f, err := parseFlags(args)
	return err == nil && !f.help && !f.version && !f.sessions && f.trustCmd == ""
}
