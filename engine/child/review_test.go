package child

import (
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// TestReviewNoteAfterDiscard: a discarded change is not said to be in the
// working tree; an applied one is.
func TestReviewNoteAfterDiscard(t *testing.T) {
	discarded := reviewNote("general-purpose-2", "longer farewell", reviewSummary(event.Review{Files: []event.ReviewFile{{Path: "main.go", Decision: event.DecisionSkipped}}}))
	if discarded != "[person: reviewed the change of sub-agent general-purpose-2 (longer farewell): discarded it; nothing was applied]" {
		t.Errorf("after a discard: %q", discarded)
	}
	applied := reviewNote("general-purpose-1", "warmer greeting", reviewSummary(event.Review{Files: []event.ReviewFile{{Path: "main.go", Decision: event.DecisionApplied}}}))
	if !strings.HasSuffix(applied, "applied main.go] What was applied is in the working tree now.") {
		t.Errorf("after an apply: %q", applied)
	}
}

// TestLandedNamesAppliedFiles: an apply that stops part way says which
// files reached the person's tree.
func TestLandedNamesAppliedFiles(t *testing.T) {
	if got := landed(nil); got != "nothing was applied" {
		t.Errorf("landed(nil) = %q", got)
	}
	if got := landed([]string{"a.txt", "b.txt"}); got != "applied before it stopped: a.txt, b.txt" {
		t.Errorf("landed = %q", got)
	}
}
