// Package pane draws one sub-agent: a live pane while it runs, one summary
// line once it ends.
//
// A Pane is fed the child's events with Apply and drawn with View; the
// root model owns the clock (SetNow, SetSpinnerFrame), the size and the
// focus, so every pane animates from one tick and nothing here starts a
// goroutine or a timer.
package pane

import (
	"github.com/charmbracelet/lipgloss"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/themes"
)

// State is where a child is in its life. The states up to
// WaitingForApproval are live; the rest are final.
type State int

// The states of a child, in the order it can pass through them.
const (
	// AwaitingApproval: the delegation waits for the person's yes or no.
	AwaitingApproval State = iota
	// Queued: approved, waiting for a free slot (max_concurrent).
	Queued
	// Running: the child's loop works.
	Running
	// WaitingForApproval: the child asked for a tool permission.
	WaitingForApproval
	// Done: the child finished its task.
	Done
	// MaxSteps: the child hit its step limit and summed up.
	MaxSteps
	// Failed: a provider or runtime error ended the child.
	Failed
	// TimedOut: the child ran out of time.
	TimedOut
	// Cancelled: the person (or the parent's end) stopped the child.
	Cancelled
	// Denied: the person refused the delegation.
	Denied
	// Interrupted: baton stopped while the child ran (seen on resume).
	Interrupted
	// OverBudget: the child spent its token or cost budget and reported.
	OverBudget
	// WoundDown: the person wound the child down and it reported.
	WoundDown
)

// names are the words the person reads for each state.
var names = [...]string{
	AwaitingApproval:   "awaiting approval",
	Queued:             "queued",
	Running:            "running",
	WaitingForApproval: "waiting for approval",
	Done:               "done",
	MaxSteps:           "max steps",
	Failed:             "failed",
	TimedOut:           "timed out",
	Cancelled:          "stopped",
	Denied:             "denied",
	Interrupted:        "interrupted",
	OverBudget:         "over budget",
	WoundDown:          "wound down",
}

// Finished reports whether the state is final: the pane has folded to its
// summary and no later event changes it.
func (s State) Finished() bool { return s >= Done }

// String is the state as the person reads it ("timed out", "stopped").
func (s State) String() string {
	if s < 0 || int(s) >= len(names) {
		return "unknown"
	}
	return names[s]
}

// stateOf maps how the engine says a run ended to the pane's final state.
// A status the pane does not know (a newer engine) reads as failed, so it
// is never mistaken for success.
func stateOf(status event.Status) State {
	switch status {
	case event.StatusCompleted:
		return Done
	case event.StatusMaxSteps:
		return MaxSteps
	case event.StatusTimedOut:
		return TimedOut
	case event.StatusCancelled:
		return Cancelled
	case event.StatusDenied:
		return Denied
	case event.StatusInterrupted:
		return Interrupted
	case event.StatusBudgetExceeded:
		return OverBudget
	case event.StatusStopped:
		return WoundDown
	}
	return Failed
}

// mark is the glyph a non-running state draws in front of the type; a
// running pane draws the spinner frame instead. Each final state has its
// own glyph, so the outcome reads without colour (NO_COLOR).
func (s State) mark() string {
	switch s {
	case AwaitingApproval, WaitingForApproval:
		return "?"
	case Queued:
		return "◌"
	case Done:
		return "✓"
	case MaxSteps:
		return "◐"
	case Failed:
		return "✗"
	case TimedOut:
		return "⏱"
	case Cancelled:
		return "■"
	case Denied:
		return "⊘"
	case Interrupted:
		return "…"
	case OverBudget:
		return "◒"
	case WoundDown:
		return "□"
	}
	return ""
}

// style colours a state's mark and status word.
func (s State) style(st *themes.PaneStyles) lipgloss.Style {
	switch s {
	case AwaitingApproval, WaitingForApproval:
		return st.Waiting
	case Queued:
		return st.Muted
	case Done:
		return st.Done
	case MaxSteps, TimedOut, OverBudget:
		return st.Limited
	case Failed:
		return st.Failed
	case Cancelled, Interrupted, WoundDown:
		return st.Stopped
	case Denied:
		return st.Denied
	}
	return st.Busy
}
