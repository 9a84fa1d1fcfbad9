package main

import (
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/seed-e4e525a6/baton/engine"
)

// printer renders a headless run: event sees every session event in
// order, finish is called once with how the turn ended.
type printer interface {
	event(ev engine.Event)
	finish(o outcome) error
}

// outcome is what a headless turn produced.
type outcome struct {
	Status   engine.Status
	Text     string
	Usage    engine.Usage
	Duration time.Duration
	Model    string
	// Err is the main agent's last error message, e.g. the provider's.
	Err string
	// SessionID and Transcript say where the run was recorded ("" when
	// it was not), so a script can resume it or read it back.
	SessionID  string
	Transcript string
}

// newPrinter returns the printer for an --output-format value.
func newPrinter(format string, stdout, stderr io.Writer) printer {
	switch format {
	case formatJSON:
		return &jsonPrinter{out: stdout}
	case formatStreamJSON:
		return &streamPrinter{out: &lineWriter{w: stdout}}
	default:
		return newTextPrinter(stdout, stderr)
	}
}

// lineWriter keeps the first write error, so a printer can write many
// lines and report a broken pipe once at the end.
type lineWriter struct {
	w   io.Writer
	err error
}

func (l *lineWriter) printf(format string, args ...any) {
	if l.err == nil {
		_, l.err = fmt.Fprintf(l.w, format, args...)
	}
}

// oneLine flattens s to a single line of at most max runes, so a progress
// line stays one line whatever a tool or a provider returned.
func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	r := []rune(s)
	return string(r[:max-1]) + "…"
}

// statusWord is how a child's status reads in a summary line.
func statusWord(s engine.Status) string {
	switch s {
	case engine.StatusCompleted:
		return "done"
	case engine.StatusTimedOut:
		return "timed out"
	case engine.StatusMaxSteps:
		return "max steps"
	default:
		return string(s)
	}
}

// exitCode maps how a turn ended to the process exit status; signalled
// says the run was stopped by SIGINT or SIGTERM.
func exitCode(s engine.Status, signalled bool) int {
	switch {
	case s == engine.StatusCompleted:
		return exitOK
	case signalled && (s == engine.StatusInterrupted || s == engine.StatusCancelled):
		return exitInterrupted
	default:
		return exitFailed
	}
}
