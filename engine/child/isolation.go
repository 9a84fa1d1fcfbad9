package child

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/seed-e4e525a6/baton/agenttypes"
)

// WorktreeConfig says when children that write get git worktrees of
// their own, and what becomes of their changes.
type WorktreeConfig struct {
	// Isolation is [subagents] isolation: "auto" (the default: a child
	// that writes gets a worktree when two or more such children run at
	// once), "worktree" (every child that writes) or "shared" (none,
	// unless its task call or agent file asks).
	Isolation string
	// Root is the state folder worktrees live in; "" is
	// $XDG_STATE_HOME/baton/worktrees.
	Root string
	// Finish is what happens to a worktree child's change when it ends:
	// FinishReview (the default) waits for the person; FinishApply,
	// FinishApplyUnverified, FinishKeep and FinishDiscard are headless
	// --worktrees.
	Finish string
	// Verify is [subagents] verify: the commands run, in order, on a
	// worktree child's change in its worktree when it finishes (nil:
	// none); VerifyTimeout is [limits] verify_timeout_s, the bound on
	// them all together.
	Verify        []string
	VerifyTimeout time.Duration
}

// The values of WorktreeConfig.Finish.
const (
	FinishReview  = "review"
	FinishApply   = "apply"
	FinishKeep    = "keep"
	FinishDiscard = "discard"
	// FinishApplyUnverified applies each change as its child ends, with
	// conflict markers where it clashes, and verifies no merge.
	FinishApplyUnverified = "apply-unverified"
)

// The values of [subagents] isolation; a task call and an agent file
// take IsolationWorktree and IsolationShared.
const (
	IsolationAuto     = "auto"
	IsolationWorktree = agenttypes.IsolationWorktree
	IsolationShared   = agenttypes.IsolationShared
)

// wantsWorktree decides a child's isolation: the task call's argument,
// else its type's, else [subagents] isolation, where auto isolates a
// child that writes when another writer runs beside it or is asked for
// in the same message (batch: the message's task calls).
func (m *Manager) wantsWorktree(arg string, typ agenttypes.Type, names []string, batch []json.RawMessage) bool {
	switch {
	case arg != "":
		return arg == IsolationWorktree
	case typ.Isolation != "":
		return typ.Isolation == IsolationWorktree
	case !canWrite(names):
		return false
	}
	switch m.opts.Worktrees.Isolation {
	case IsolationShared:
		return false
	case IsolationWorktree:
		return true
	}
	return m.writers.Load() > 0 || m.batchWriters(batch) >= 2
}

// batchWriters counts the task calls of a message that would start a
// child that can change files; a call that does not read does not count.
func (m *Manager) batchWriters(batch []json.RawMessage) int {
	n := 0
	for _, raw := range batch {
		tc, err := readTaskCall(raw, m.opts.Types)
		if err != nil || tc.Resume != "" {
			continue
		}
		if typ, err := m.pickType(tc.SubagentType); err == nil && canWrite(m.builtinNames(typ)) {
			n++
		}
	}
	return n
}

// worktreeNote tells a worktree child where it works and that its change
// is reviewed before it reaches the person.
func worktreeNote(dir string) string {
	return strings.Join([]string{
		"You work in a git worktree of your own at " + dir + ": a copy of the person's project as it is now, uncommitted changes included.",
		"Other agents may be changing the same files in their own copies; your change is reviewed and merged into the person's tree after you finish.",
		"Edit files only; do not commit, stash, reset or switch branches.",
	}, " ")
}
