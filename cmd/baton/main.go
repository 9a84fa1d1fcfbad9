// Command baton is a full-screen terminal coding agent that delegates
// sub-tasks to sub-agents running in parallel; with -p it runs one turn
// headless and prints the answer. This package is wiring only: flags,
// environment, config files, exit codes and the headless printers.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/seed-e4e525a6/baton/engine/sandbox"
)

func main() {
	// First of all: a sandbox stage runs and exits here, before anything
	// else starts, and the API key leaves the process environment.
	sandbox.Main()
	environ := hideKey(os.Environ())
	// The root context: SIGINT or SIGTERM cancels it and the run ends
	// with status 130. After the first signal the default handling is
	// restored, so a second one kills a run that does not stop.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	// This goroutine ends with the first signal, or never if the run
	// finishes first (os.Exit then ends the process).
	go func() {
		<-ctx.Done()
		stop()
	}()
	os.Exit(run(ctx, os.Args[1:], environ, os.Stdin, os.Stdout, os.Stderr))
}
