package tools

import (
	"context"
	"fmt"
	"io/fs"
)

// Withhold decides, for one file a search or listing comes upon (its
// absolute path as walked, which may be a symlink), whether the person's
// rules keep it from the model, and names the rule that does.
type Withhold func(abs string) (rule string, withheld bool)

// withholdKey keys a Withhold in a context.
type withholdKey struct{}

// WithWithhold returns ctx carrying w: grep, find_files and list_files
// leave out every file w withholds, and say how many and by which rule.
// The rules are the caller's, decided per call, so they travel with the
// call rather than with the tool.
func WithWithhold(ctx context.Context, w Withhold) context.Context {
	return context.WithValue(ctx, withholdKey{}, w)
}

// withheld counts what a walk left out, per rule, in the order met.
type withheld struct {
	hold   Withhold
	rules  []string
	counts map[string]int
}

// newWithheld reads the Withhold a call carries; without one nothing is
// left out.
func newWithheld(ctx context.Context) *withheld {
	hold, _ := ctx.Value(withholdKey{}).(Withhold)
	return &withheld{hold: hold, counts: map[string]int{}}
}

// skip reports whether a walked entry is left out. Folders are walked
// into, so that each file in them is decided on its own.
func (w *withheld) skip(abs string, d fs.DirEntry) bool {
	if w.hold == nil || d.IsDir() {
		return false
	}
	rule, ok := w.hold(abs)
	if !ok {
		return false
	}
	if w.counts[rule] == 0 {
		w.rules = append(w.rules, rule)
	}
	w.counts[rule]++
	return true
}

// notes say what was left out, for the result; never which files.
func (w *withheld) notes() []string {
	var out []string
	for _, rule := range w.rules {
		out = append(out, fmt.Sprintf("[note: %s left out by the rule %s]", plural(w.counts[rule], "file", "files"), rule))
	}
	return out
}
