package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/tools"
	"github.com/seed-e4e525a6/baton/engine/worktree"
)

// isolation is how one child works, as its delegation card says.
type isolation struct {
	// iso is its worktree (nil: it works in the person's tree).
	iso *isolated
	// note says why a worktree was asked for and refused.
	note string
}

// isolate gives a child that should not share the person's tree a
// worktree, and points its spec there: tools, commands, sandbox and
// prompt. Outside git the child runs shared, and note says so. When the
// worktree cannot be made (a full disk, a failing git) the child is not
// started: running it in the person's tree would land its change there
// unreviewed.
func (d *delegator) isolate(ctx context.Context, meta event.Meta, args taskArgs, arg string, parent *Agent, spec *childSpec) (isolation, error) {
	if !d.wantsWorktree(ctx, arg, spec.typ, spec.tools) {
		return isolation{}, nil
	}
	iso, err := d.s.wt.create(ctx, meta, parent)
	if errors.Is(err, worktree.ErrNotRepository) {
		return isolation{note: fmt.Sprintf("worktree isolation refused: %s is not in a git repository, so this child works in the shared tree", d.workspace)}, nil
	}
	if err != nil {
		return isolation{}, worktreeFailed(err)
	}
	root := iso.tree.Workspace()
	ws, err := tools.NewWorkspace(root)
	if err != nil {
		_ = iso.remove(ctx)
		return isolation{}, worktreeFailed(err)
	}
	spec.box = spec.box.In(ws.Root())
	spec.tools = d.childTools(ws, spec.typ, spec.box)
	spec.workspace = ws.Root()
	spec.system = childSystemPrompt(spec.typ, args.Instructions, ws.Root(), d.agentsMD) + "\n\n" + worktreeNote(ws.Root())
	return isolation{iso: iso}, nil
}

// worktreeFailed is the task call's error when a child's worktree could
// not be made.
func worktreeFailed(err error) error {
	return fmt.Errorf("worktree isolation failed, so the sub-agent was not started (it would have written to the person's tree unreviewed): %w", err)
}

// preview fills the delegation card's isolation fields.
func (i isolation) preview(p *event.DelegationPreview) {
	p.Isolation, p.IsolationNote = event.IsolationShared, i.note
	if i.iso != nil {
		p.Isolation, p.From = event.IsolationWorktree, i.iso.from+" · "+i.iso.tree.Dir
	}
}

// finish reads a worktree child's change when it ends and says what the
// parent is told: the change waits for review, or what headless
// --worktrees did with it.
func (iso *isolated) finish() (*event.Change, string) {
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
	iso.change, iso.review = change, event.Review{}
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
	switch iso.w.s.cfg.Worktrees.Finish {
	case FinishApply:
		_, applied, err := iso.applyFiles(ctx, iso.w.s.deleg.ws, iso.targets(-1), -1, worktree.Markers)
		if err != nil && len(applied) == 0 {
			return iso.keepAfter(ctx, c, what+" could not be applied, and nothing of it was written: "+err.Error())
		}
		if err != nil {
			return iso.keepAfter(ctx, c, fmt.Sprintf("%s was applied only in part: %s reached the working tree, then %v", what, strings.Join(applied, ", "), err))
		}
		iso.settleIfDone(false)
		c.State = event.ChangeReviewed
		return &c, what + " was applied to the working tree: " + reviewSummary(iso.review) + "."
	case FinishKeep:
		return iso.keepAfter(ctx, c, what+" was not applied to the working tree")
	case FinishDiscard:
		iso.finished = true
		_ = iso.remove(ctx)
		c.State, c.Worktree = event.ChangeReviewed, ""
		return &c, what + " was discarded, as --worktrees discard asks."
	}
	iso.record.State = worktree.StatePending
	_ = iso.record.Save()
	return &c, what + " is in its own worktree, pending the person's review: it is not in your working tree yet. " +
		"You will be told what the person applied before your next step."
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

// worktreeOf is the worktree a child works in: its workspace when that
// is not the session's.
func worktreeOf(workspace, session string) string {
	if workspace == session {
		return ""
	}
	return workspace
}
