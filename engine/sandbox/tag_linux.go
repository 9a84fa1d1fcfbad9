package sandbox

import "sync/atomic"

// tag starts the marker of every command this process runs (see TagRuns).
var tag atomic.Pointer[string]

// TagRuns marks every command this process runs from now on with tag, so
// that the baton process that started this one can find what they leave
// if this one dies before cleaning up (Sweep, in that process). tag is
// letters and digits.
func TagRuns(t string) { tag.Store(&t) }

// runTag is the start of a run's marker: the tag and a dot, or nothing.
func runTag() string {
	if t := tag.Load(); t != nil && *t != "" {
		return *t + "."
	}
	return ""
}
