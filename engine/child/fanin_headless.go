package child

import (
	"context"
	"fmt"
	"strings"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// Merge is what headless --worktrees apply did with the changes of the
// children that had ended when no other worktree child was running.
type Merge struct {
	// Applied are the changes applied, in order (none when the merge
	// failed); Kept those left on their branches (see Kept).
	Applied []event.AgentID `json:"applied"`
	Kept    []event.AgentID `json:"kept,omitempty"`
	// Verified says the merged result passed its verification before it
	// was applied; Verify is that verification (nil: no verify command
	// applied, and Applied went in unverified).
	Verified bool                `json:"verified"`
	Verify   *event.Verification `json:"verify,omitempty"`
	// Failed says the merge was not applied, and Reason why.
	Failed bool   `json:"failed"`
	Reason string `json:"reason,omitempty"`
}

// Merges lists what headless --worktrees apply did so far.
func (m *Manager) Merges() []Merge {
	m.wt.mu.Lock()
	defer m.wt.mu.Unlock()
	return append([]Merge(nil), m.wt.merges...)
}

// ready says the child's end was reported, so its change may join a
// merge, and runs --worktrees apply's merge when it was the last
// worktree child running.
func (iso *isolated) ready() {
	iso.mu.Lock()
	iso.ended = true
	iso.mu.Unlock()
	iso.w.mergeHeadless()
}

// mergeHeadless is --worktrees apply once no worktree child runs: the
// changes that passed their own verification (or have none) are merged,
// their merged result verified in a scratch worktree, and all of them
// applied or none. What is not applied is kept on its branch, and the
// parent is told the outcome before its next step.
func (w *worktrees) mergeHeadless() {
	if w.m.opts.Worktrees.Finish != FinishApply {
		return
	}
	w.merging.Lock()
	defer w.merging.Unlock()
	if w.running() {
		return // the last child to end merges them all
	}
	pending := w.pending()
	if len(pending) == 0 {
		return
	}
	ctx := w.m.ctx
	var passed []event.AgentID
	var failedOwn []*isolated
	for _, iso := range pending {
		iso.mu.Lock()
		v := iso.review.Verify
		iso.mu.Unlock()
		if v != nil && !v.Passed {
			failedOwn = append(failedOwn, iso)
			continue
		}
		passed = append(passed, iso.meta.Agent)
	}
	out := Merge{Failed: true, Reason: "no change passed its own verification"}
	if len(passed) > 0 {
		out = w.m.mergeAll(ctx, passed)
	}
	for _, iso := range failedOwn {
		out.Kept = append(out.Kept, iso.meta.Agent)
		iso.mu.Lock()
		_, note := iso.keepAfter(ctx, changeOf(iso.change, event.ChangePending), fmt.Sprintf("The change of sub-agent %s failed its own verification (%s), so --worktrees apply left it out", iso.meta.Agent, iso.review.Verify.Mark()))
		iso.mu.Unlock()
		if iso.caller.Tell != nil {
			iso.caller.Tell(note)
		}
	}
	w.mu.Lock()
	w.merges = append(w.merges, out)
	w.mu.Unlock()
}

// running reports whether a worktree child has not ended yet.
func (w *worktrees) running() bool {
	w.mu.Lock()
	var all []*isolated
	for _, iso := range w.open {
		all = append(all, iso)
	}
	w.mu.Unlock()
	for _, iso := range all {
		iso.mu.Lock()
		ended := iso.ended || iso.finished
		iso.mu.Unlock()
		if !ended {
			return true
		}
	}
	return false
}

// mergeAll previews, verifies and applies the changes ids, all or none;
// when they are not applied each is kept on its branch and its caller
// told why.
func (m *Manager) mergeAll(ctx context.Context, ids []event.AgentID) Merge {
	view, err := m.PreviewFanIn(ctx, ids)
	reason := ""
	switch {
	case err != nil:
		reason = err.Error()
	case len(view.Left) > 0:
		reason = conflictReason(view.Left)
	case len(view.Commands) > 0:
		if view, err = m.VerifyFanIn(ctx, view.ID); err != nil {
			reason = err.Error()
		} else if !view.Verified() {
			reason = fmt.Sprintf("their merged result failed its verification (%s): %s", strings.Join(view.Commands, " && "), strings.TrimPrefix(view.Verify.Mark(), "✗ "))
		}
	}
	if reason == "" {
		applied, err := m.ApplyFanIn(ctx, view.ID, len(view.Commands) == 0)
		if err == nil {
			return Merge{Applied: applied.Applied, Verified: view.Verified(), Verify: applied.Verify}
		}
		reason = err.Error()
	}
	out := Merge{Failed: true, Reason: reason, Verify: view.Verify}
	note := fmt.Sprintf("--worktrees apply applied none of the changes of %s: %s. Your working tree is unchanged", joinIDs(ids), reason)
	if view.Verify != nil && !view.Verify.Passed {
		note += ". Merged verification output:\n" + clipStart(view.Verify.Output, 2000)
	}
	told := map[event.AgentID]bool{}
	for _, id := range ids {
		iso, err := m.wt.get(id)
		if err != nil {
			continue
		}
		out.Kept = append(out.Kept, id)
		iso.mu.Lock()
		_, _ = iso.keepAfter(ctx, changeOf(iso.change, event.ChangePending), "")
		iso.mu.Unlock()
		if iso.caller.Tell != nil && !told[iso.caller.Meta.Agent] {
			told[iso.caller.Meta.Agent] = true
			iso.caller.Tell(note + "; each change is kept on its branch (see baton worktrees).")
		}
	}
	return out
}

// conflictReason says which changes conflict where.
func conflictReason(left []event.FanInLeft) string {
	var parts []string
	for _, l := range left {
		with := "your uncommitted edits"
		if len(l.With) > 0 {
			with = joinIDs(l.With)
		}
		parts = append(parts, fmt.Sprintf("%s conflicts with %s in %s (%s)", l.Agent, with, l.Path, event.Plural(l.Regions, "region")))
	}
	return "the changes conflict: " + strings.Join(parts, "; ")
}

// joinIDs lists agent ids.
func joinIDs(ids []event.AgentID) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = string(id)
	}
	return strings.Join(s, ", ")
}
