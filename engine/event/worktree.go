package event

import "fmt"

// The isolations a delegation card names.
const (
	// IsolationWorktree: the child works in a git worktree of its own,
	// and its change reaches the person's tree only through review.
	IsolationWorktree = "worktree"
	// IsolationShared: the child works in the person's tree.
	IsolationShared = "shared"
)

// The states of a worktree child's change.
const (
	// ChangePending waits for the person's review.
	ChangePending = "pending"
	// ChangeReviewed: every file and hunk was applied or skipped.
	ChangeReviewed = "reviewed"
	// ChangeKept: committed on a branch and left in its worktree.
	ChangeKept = "kept"
	// ChangeNone: the child changed no file.
	ChangeNone = "none"
	// ChangeGone: the session was resumed and the worktree holding the
	// unreviewed change is no longer there.
	ChangeGone = "gone"
)

// Change is what a worktree child changed, as its fold line shows it.
type Change struct {
	Added   int    `json:"added"`
	Removed int    `json:"removed"`
	Files   int    `json:"files"`
	State   string `json:"state"`
	// Worktree is the child's worktree folder, Branch the branch a kept
	// change is committed on.
	Worktree string `json:"worktree,omitempty"`
	Branch   string `json:"branch,omitempty"`
	// Verify is how the verify command ended on the change; nil when
	// none is configured.
	Verify *Verification `json:"verify,omitempty"`
}

// Line is "+42 −7 in 3 files".
func (c Change) Line() string {
	files := "files"
	if c.Files == 1 {
		files = "file"
	}
	return fmt.Sprintf("+%d −%d in %d %s", c.Added, c.Removed, c.Files, files)
}

// ReviewFinished says what became of a worktree child's change: applied,
// skipped, discarded or kept, in Summary's words (the parent model is
// told the same before its next step).
type ReviewFinished struct {
	Meta
	Change  Change `json:"change"`
	Summary string `json:"summary"`
}

// Kind implements Event.
func (ReviewFinished) Kind() string { return "review_finished" }

// The decisions on a file or hunk under review.
const (
	DecisionPending = ""
	DecisionApplied = "applied"
	DecisionSkipped = "skipped"
	// DecisionMarked: applied with conflict markers for the person to
	// edit.
	DecisionMarked = "conflict markers"
)

// Review is a worktree child's change laid out for the person: files,
// hunks and what was decided on each.
type Review struct {
	Agent       AgentID      `json:"agent"`
	AgentType   string       `json:"agent_type"`
	Description string       `json:"description"`
	Worktree    string       `json:"worktree"`
	From        string       `json:"from"`
	Files       []ReviewFile `json:"files"`
	// Verify is how the verify command ended on the child's own change.
	Verify *Verification `json:"verify,omitempty"`
}

// ReviewFile is one file of a review. A file without hunks (binary, a
// deletion of an empty file) is decided whole, in Decision.
type ReviewFile struct {
	Path     string       `json:"path"`
	Status   string       `json:"status"`
	Binary   bool         `json:"binary,omitempty"`
	Symlink  bool         `json:"symlink,omitempty"`
	Added    int          `json:"added"`
	Removed  int          `json:"removed"`
	Hunks    []ReviewHunk `json:"hunks"`
	Decision string       `json:"decision,omitempty"`
}

// Pending reports whether anything in the file is still undecided.
func (f ReviewFile) Pending() bool {
	if len(f.Hunks) == 0 {
		return f.Decision == DecisionPending
	}
	for _, h := range f.Hunks {
		if h.Decision == DecisionPending {
			return true
		}
	}
	return false
}

// ReviewHunk is one hunk of a file under review.
type ReviewHunk struct {
	Header   string     `json:"header"`
	Lines    []DiffLine `json:"lines"`
	Decision string     `json:"decision,omitempty"`
}

// DiffLine is one line of a hunk: Kind ' ' context, '-' removed, '+'
// added.
type DiffLine struct {
	Kind byte   `json:"kind"`
	Text string `json:"text"`
}

// ReviewConflict is what applying a file or hunk would clash with: the
// regions where the person's file and the child's change differ.
type ReviewConflict struct {
	Path    string           `json:"path"`
	Regions []ConflictRegion `json:"regions"`
}

// ConflictRegion is one clash: the person's lines and the child's.
type ConflictRegion struct {
	Mine  string `json:"mine"`
	Child string `json:"child"`
}
