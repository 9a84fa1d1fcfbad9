package child

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/tools"
	"github.com/seed-e4e525a6/baton/engine/worktree"
)

// isolate gives a child that should not share the person's tree a
// worktree, and points its spec there: tools, commands, sandbox and
// prompt. Outside git the child runs shared, and note says so. When the
// worktree cannot be made (a full disk, a failing git) the child is not
// started: running it in the person's tree would land its change there
// unreviewed.
//
// A child in a container that can change files always gets a worktree:
// only its own worktree is mounted writable there, never the person's
// tree, so outside git it is not started.
func (m *Manager) isolate(ctx context.Context, c *Child, tc taskCall, batch []json.RawMessage, spec *Spec) (iso *isolated, note string, err error) {
	contained := spec.Runner == RunnerContainer && spec.Toolbox.CanWrite()
	if !contained && !m.wantsWorktree(tc.Isolation, spec.Type, spec.Toolbox.Names, batch) {
		return nil, "", nil
	}
	iso, err = m.wt.create(ctx, c.meta, spec.Caller)
	if errors.Is(err, worktree.ErrNotRepository) && contained {
		return nil, "", fmt.Errorf("a sub-agent that changes files runs in a container only in a git worktree of its own, and %s is not in a git repository; use a read-only agent type, or another runner", m.opts.Workspace.Root())
	}
	if errors.Is(err, worktree.ErrNotRepository) {
		return nil, fmt.Sprintf("worktree isolation refused: %s is not in a git repository, so this child works in the shared tree", m.opts.Workspace.Root()), nil
	}
	if err != nil {
		return nil, "", worktreeFailed(err)
	}
	ws, err := tools.NewWorkspace(iso.tree.Workspace())
	if err != nil {
		_ = iso.remove(ctx)
		return nil, "", worktreeFailed(err)
	}
	moved := m.typeSpec(spec.Type, tc.Instructions, ws.Root())
	spec.Toolbox.Sandbox, spec.Workspace, spec.Worktree = moved.Toolbox.Sandbox, moved.Workspace, moved.Worktree
	spec.System = moved.System + spec.Skills.Prompt + "\n\n" + worktreeNote(ws.Root())
	c.ws, iso.box = ws, m.childBox(spec.Type)
	return iso, "", nil
}

// worktreeFailed is the task call's error when a child's worktree could
// not be made.
func worktreeFailed(err error) error {
	return fmt.Errorf("worktree isolation failed, so the sub-agent was not started (it would have written to the person's tree unreviewed): %w", err)
}

// finish reads a worktree child's change when it ends and says what the
// parent is told: the change waits for review, or what headless
// --worktrees did with it.
func (iso *isolated) finish(check *Verifier, ws *tools.Workspace) (*event.Change, string) {
	ctx := context.Background()
	iso.mu.Lock()
	defer iso.mu.Unlock()
	dir := iso.tree.Dir
	change, err := iso.tree.Diff(ctx)
	if err != nil {
		iso.finished = true
		iso.w.forget(iso.meta.Agent)
		return &event.Change{State: event.ChangeKept, Worktree: dir},
			fmt.Sprintf("Its change could not be read (%v); it stays in the worktree %s for the person.", err, dir)
	}
	iso.change, iso.review, iso.check = change, event.Review{}, check
	iso.review = newReview(iso)
	c := changeOf(change, event.ChangePending)
	c.Worktree = dir
	if len(change.Files) == 0 {
		iso.finished = true
		_ = iso.remove(ctx)
		c.State, c.Worktree = event.ChangeNone, ""
		return &c, "It changed no files."
	}
	files := make([]string, 0, len(change.Files))
	for _, f := range change.Files {
		files = append(files, f.Path)
	}
	what := fmt.Sprintf("Its change (%s: %s)", c.Line(), clip(strings.Join(files, ", "), 400))
	verified := ""
	if check != nil {
		v := check.Run(iso.w.m.ctx, ws)
		c.Verify, iso.review.Verify = &v, &v
		verified = " " + verifyNote("It", v)
	}
	switch iso.w.m.opts.Worktrees.Finish {
	case FinishApply:
		iso.record.State = worktree.StatePending
		_ = iso.record.Save()
		return &c, what + " waits to be merged with the other changes of this run that pass their own verification: their merged result is verified before any is applied, and all of them are applied or none. " +
			"You will be told the outcome once no other worktree sub-agent runs: before your next step, when none does." + verified
	case FinishApplyUnverified:
		_, applied, err := iso.applyFiles(ctx, iso.w.m.opts.Workspace, iso.targets(-1), -1, worktree.Markers)
		if err != nil && len(applied) == 0 {
			return iso.keepAfter(ctx, c, what+" could not be applied, and nothing of it was written: "+err.Error())
		}
		if err != nil {
			return iso.keepAfter(ctx, c, fmt.Sprintf("%s was applied only in part: %s reached the working tree, then %v", what, strings.Join(applied, ", "), err))
		}
		iso.settleIfDone(false)
		c.State = event.ChangeReviewed
		return &c, what + " was applied to the working tree: " + reviewSummary(iso.review) + "." + verified
	case FinishKeep:
		c, note := iso.keepAfter(ctx, c, what+" was not applied to the working tree")
		return c, note + verified
	case FinishDiscard:
		iso.finished = true
		_ = iso.remove(ctx)
		c.State, c.Worktree = event.ChangeReviewed, ""
		return &c, what + " was discarded, as --worktrees discard asks." + verified
	}
	iso.record.State = worktree.StatePending
	_ = iso.record.Save()
	return &c, what + " is in its own worktree, pending the person's review: it is not in your working tree yet. " +
		"You will be told what the person applied before your next step." + verified
}

// keepAfter keeps the change on its branch and says where.
func (iso *isolated) keepAfter(ctx context.Context, c event.Change, what string) (*event.Change, string) {
	iso.finished = true
	k, err := iso.keep(ctx)
	if err != nil {
		c.State = event.ChangeKept
		return &c, fmt.Sprintf("%s; it stays uncommitted in the worktree %s (%v).", what, k.Path, err)
	}
	c.State, c.Branch = event.ChangeKept, k.Branch
	return &c, fmt.Sprintf("%s; it is kept in the worktree %s on branch %s.", what, k.Path, k.Branch)
}
