package event

import (
	"fmt"
	"time"
)

// Verification is how a change's verify command ([subagents] verify, an
// agent file's verify:, or the task call's) ended when it ran on the
// change: a child's own change in its worktree, or several merged in a
// scratch worktree.
type Verification struct {
	// Command is what ran, the commands joined with " && ".
	Command string `json:"command"`
	Passed  bool   `json:"passed"`
	// Failing counts the failing tests the output names (Go's
	// "--- FAIL:", pytest's "FAILED "); 0 when it names none.
	Failing int `json:"failing,omitempty"`
	// Exit is the failing command's exit status (-1: none).
	Exit int `json:"exit,omitempty"`
	// TimedOut says it ran past [limits] verify_timeout_s and was killed.
	TimedOut bool          `json:"timed_out,omitempty"`
	Timeout  time.Duration `json:"timeout,omitempty"`
	// Error says it could not run at all (refused, no sandbox).
	Error string `json:"error,omitempty"`
	// Output is what it printed, bounded like a tool result.
	Output string `json:"output,omitempty"`
}

// Mark is the verification as the fold line and the review show it:
// "verified ✓", "✗ 3 failing", "✗ timed out after 30s".
func (v Verification) Mark() string {
	switch {
	case v.Passed:
		return "verified ✓"
	case v.TimedOut:
		return "✗ verify timed out after " + v.Timeout.Round(time.Second).String()
	case v.Error != "":
		return "✗ verify could not run"
	case v.Failing > 0:
		return fmt.Sprintf("✗ %d failing", v.Failing)
	}
	return fmt.Sprintf("✗ verify failed (exit %d)", v.Exit)
}
