package main

import (
	"io"
	"strings"

	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// cleanWriter passes text on without terminal escape sequences or
// control characters. Everything baton prints outside the TUI goes through
// it (the answer, progress and notes, errors, `baton --sessions`), since
// much of that text comes from a model or a repository: a reply holding
// ESC]52 would write the person's clipboard, ESC[2J wipe the screen. It
// is the TUI's own cleaner, except that tabs stay tabs, so an answer piped
// into a Makefile or a Go file keeps its indentation. JSON output has no
// raw control characters and passes unchanged.
type cleanWriter struct{ w io.Writer }

// Write cleans p, which is one whole printf from the printers; a sequence
// split across two writes cannot survive either, since its ESC is dropped.
func (c cleanWriter) Write(p []byte) (int, error) {
	parts := strings.Split(string(p), "\t")
	for i, part := range parts {
		parts[i] = termtext.Clean(part)
	}
	if _, err := io.WriteString(c.w, strings.Join(parts, "\t")); err != nil {
		return 0, err
	}
	return len(p), nil
}
