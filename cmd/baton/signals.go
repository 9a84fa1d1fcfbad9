package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/seed-e4e525a6/baton/engine/child/process"
)

// endSignals end baton: ctrl+c where the terminal is not in raw mode,
// kill's default, and the terminal going away.
func endSignals() []os.Signal { return []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP} }

// watchSignals is the process's only signal handler. The first of
// endSignals cancels the returned context: the TUI quits and gives the
// terminal back, running agents are cancelled and recorded as interrupted,
// the transcript is closed, and the run exits with 130. A second one means
// "now": restore (which gives the terminal back if the UI still holds it)
// runs, the child processes that would outlive baton are killed, and the
// process exits with 130 at once. stop releases the signals and ends the
// goroutine; a process that exits next need not call it.
func watchSignals(parent context.Context, restore func()) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancel(parent)
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, endSignals()...)
	done := make(chan struct{})
	// This goroutine ends when stop is called, or with the process (after
	// a second signal, or when it exits without calling stop).
	go func() {
		select {
		case <-sigs:
			cancel()
		case <-done:
			return
		}
		select {
		case <-sigs:
			restore()
			process.KillAll() // none left running that was not detached
			os.Exit(exitInterrupted)
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		close(done)
		cancel()
	}
}
