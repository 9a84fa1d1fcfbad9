package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine/tools"
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
	// FinishKeep and FinishDiscard are headless --worktrees.
	Finish string
}

// The values of WorktreeConfig.Finish.
const (
	FinishReview  = "review"
	FinishApply   = "apply"
	FinishKeep    = "keep"
	FinishDiscard = "discard"
)

// The values of [subagents] isolation; a task call and an agent file
// take IsolationWorktree and IsolationShared.
const (
	IsolationAuto     = "auto"
	IsolationWorktree = agenttypes.IsolationWorktree
	IsolationShared   = agenttypes.IsolationShared
)

// isolationArg is the task tool's isolation argument, read from the same
// JSON as taskArgs.
type isolationArg struct {
	Isolation string `json:"isolation"`
}

// parseIsolation reads and checks a task call's isolation argument.
func parseIsolation(raw json.RawMessage) (string, error) {
	var a isolationArg
	if err := json.Unmarshal(raw, &a); err != nil {
		return "", fmt.Errorf("invalid arguments for task: %w", err)
	}
	switch a.Isolation {
	case "", IsolationWorktree, IsolationShared:
		return a.Isolation, nil
	}
	return "", fmt.Errorf("isolation must be %q or %q, not %q", IsolationWorktree, IsolationShared, a.Isolation)
}

// wantsWorktree decides a child's isolation: the task call's argument,
// else its type's, else [subagents] isolation, where auto isolates a
// child that writes when another writer runs beside it.
func (d *delegator) wantsWorktree(ctx context.Context, arg string, typ agenttypes.Type, set *tools.Set) bool {
	switch {
	case arg != "":
		return arg == IsolationWorktree
	case typ.Isolation != "":
		return typ.Isolation == IsolationWorktree
	case !canWrite(set):
		return false
	}
	switch d.s.cfg.Worktrees.Isolation {
	case IsolationShared:
		return false
	case IsolationWorktree:
		return true
	}
	return batchWriters(ctx) >= 2 || d.writers.Load() > 0
}

// batchKey holds, in a context, how many task calls of one assistant
// message start children that write.
type batchKey struct{}

// withBatchWriters counts the task calls in calls whose child would
// write files, for the auto isolation rule.
func withBatchWriters(ctx context.Context, a *Agent, calls []openai.ToolCall) context.Context {
	n := 0
	for _, c := range calls {
		tool, ok := a.tools.Get(c.Function.Name)
		task, isTask := tool.(*taskTool)
		if ok && isTask && task.d.writes(json.RawMessage(c.Function.Arguments)) {
			n++
		}
	}
	return context.WithValue(ctx, batchKey{}, n)
}

// batchWriters is what withBatchWriters counted (0 outside a batch).
func batchWriters(ctx context.Context) int {
	n, _ := ctx.Value(batchKey{}).(int)
	return n
}

// writes reports whether a task call would start a child that can change
// files; a call that does not parse does not count.
func (d *delegator) writes(raw json.RawMessage) bool {
	args, err := parseTaskArgs(raw, d.types)
	if err != nil {
		return false
	}
	typ, err := d.pickType(args)
	if err != nil {
		return false
	}
	return canWrite(d.childTools(d.ws, typ, d.box))
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
