package main

import (
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// printer renders a headless run: event sees every session event in
// order, finish is called once with how the turn ended.
type printer interface {
	event(ev event.Event)
	finish(o outcome) error
}

// outcome is what a headless turn produced.
type outcome struct {
	Status   event.Status
	Text     string
	Usage    event.Usage
	Duration time.Duration
	Model    string
	// Err is the main agent's last error message, e.g. the provider's.
	Err string
	// SessionID and Transcript say where the run was recorded ("" when
	// it was not), so a script can resume it or read it back.
	SessionID  string
	Transcript string
	// Sandbox is what commands ran under: the mode, "off" or
	// "unavailable" where the kernel cannot sandbox.
	Sandbox string
	// Worktrees are the sub-agent changes kept on branches.
	Worktrees []child.KeptWorktree
	// Merges are what --worktrees apply did with the changes.
	Merges []child.Merge
	// Background lists the sub-agents that ran in the background.
	Background []child.BackgroundChild
}

// addTurn folds a main turn that ended into the outcome: a run whose
// background results woke further turns answers with all of them, and
// ends as the last one did.
func (o *outcome) addTurn(ended event.TurnEnded) {
	o.Status = ended.Status
	o.Usage = o.Usage.Add(ended.Usage)
	if text := strings.TrimSpace(ended.Text); text != "" && o.Text != "" {
		o.Text += "\n\n" + ended.Text
	} else if text != "" {
		o.Text = ended.Text
	}
}

// printOptions are what the Claude Code formats need besides the events.
type printOptions struct {
	info claudeInfo
	// verbose and partial are --verbose and --include-partial-messages.
	verbose, partial bool
}

// newPrinter returns the printer for an --output-format value.
func newPrinter(format string, stdout, stderr io.Writer, opts printOptions) printer {
	switch format {
	case formatJSON:
		return newJSONPrinter(stdout, opts.info, opts.verbose)
	case formatStreamJSON:
		return newClaudeStreamPrinter(&lineWriter{w: stdout}, opts.info, opts.partial)
	case formatBatonStreamJSON:
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

// exitCode maps how a turn ended to the process exit status; signalled
// says the run was stopped by SIGINT or SIGTERM.
func exitCode(s event.Status, signalled bool) int {
	switch {
	case s == event.StatusCompleted:
		return exitOK
	case signalled && (s == event.StatusInterrupted || s == event.StatusCancelled):
		return exitInterrupted
	default:
		return exitFailed
	}
}

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
