package main

import (
	"fmt"
	"log"
	"log/slog"
	"os"
)

// redirectLogs routes the log and slog packages for the length of a run:
// into the BATON_DEBUG file when one is named, and nowhere when quiet (the
// TUI owns the terminal and a stray line would corrupt the screen).
// Headless runs without BATON_DEBUG keep the defaults (stderr). The
// returned func restores what was there before.
func redirectLogs(path string, quiet bool) (func(), error) {
	prevLogger, prevOut, prevFlags := slog.Default(), log.Writer(), log.Flags()
	restore := func() {
		slog.SetDefault(prevLogger)
		log.SetOutput(prevOut)
		log.SetFlags(prevFlags)
	}
	switch {
	case path != "":
		f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			return nil, fmt.Errorf("open debug log: %w", err)
		}
		slog.SetDefault(slog.New(slog.NewTextHandler(f, &slog.HandlerOptions{Level: slog.LevelDebug})))
		return func() {
			restore()
			f.Close()
		}, nil
	case quiet:
		slog.SetDefault(slog.New(slog.DiscardHandler))
	}
	return restore, nil
}
