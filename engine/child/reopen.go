package child

import (
	"context"
	"fmt"
	"sort"

	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/worktree"
)

// A review outlives the session: what the person decided reaches the main
// transcript (ReviewFinished), and a change nobody finished reviewing (kept
// on its branch when baton quit, or left pending by a crash) is reviewable
// again after --continue, with the decisions already made.

// Reopen finds again, for a resumed session whose events are history,
// every worktree child's change that was not fully reviewed, and opens it
// for review; the child's line in history then says it waits for review.
// A change whose worktree is gone says that instead, in a note it
// returns. main, the main agent, is told what the person decides on its
// children's changes.
func (m *Manager) Reopen(history []event.Event, main agent.Caller) (notes []string) {
	waiting := map[event.AgentID]int{} // the child's AgentFinished in history
	for i, ev := range history {
		switch e := ev.(type) {
		case event.AgentFinished:
			if e.Change != nil && (e.Change.State == event.ChangePending || e.Change.State == event.ChangeKept) {
				waiting[e.Agent] = i
			}
		case event.ReviewFinished:
			delete(waiting, e.Agent)
		}
	}
	if len(waiting) == 0 {
		return nil
	}
	at := make([]int, 0, len(waiting))
	for _, i := range waiting {
		at = append(at, i)
	}
	sort.Ints(at)
	records := m.wt.records()
	for _, i := range at {
		fin := history[i].(event.AgentFinished)
		c := *fin.Change
		iso, err := m.wt.reopen(m.ctx, records, fin.Meta, main)
		if err != nil {
			c.State = event.ChangeGone
			notes = append(notes, fmt.Sprintf("the change of #%d %s can no longer be reviewed here: %v", fin.Number, fin.Agent, err))
		} else {
			c = changeOf(iso.change, event.ChangePending)
			c.Worktree, c.Branch = iso.tree.Dir, iso.record.Branch
		}
		fin.Change = &c
		history[i] = fin
	}
	return notes
}

// records are this session's worktree records, by child.
func (w *worktrees) records() map[string]worktree.Record {
	out := map[string]worktree.Record{}
	if w.root == "" {
		return out
	}
	list, err := worktree.List(w.root)
	if err != nil {
		return out
	}
	for _, r := range list {
		if r.Session == w.session {
			out[r.Agent] = r
		}
	}
	return out
}

// reopen makes a finished child's change reviewable again from its
// worktree's record: the change is read afresh from the worktree and the
// decisions the record kept are applied to it.
func (w *worktrees) reopen(ctx context.Context, records map[string]worktree.Record, meta event.Meta, main agent.Caller) (*isolated, error) {
	rec, ok := records[string(meta.Agent)]
	switch {
	case !ok:
		return nil, fmt.Errorf("its worktree is gone")
	case rec.State != worktree.StatePending && rec.State != worktree.StateKept:
		return nil, fmt.Errorf("its worktree %s was left %s", rec.Dir, rec.State)
	}
	repo, err := worktree.Open(ctx, w.m.opts.Workspace.Root())
	if err != nil {
		return nil, err
	}
	tree, err := repo.Reopen(ctx, rec)
	if err != nil {
		return nil, err
	}
	change, err := tree.Diff(ctx)
	switch {
	case err != nil:
		return nil, err
	case len(change.Files) == 0:
		return nil, fmt.Errorf("its worktree %s holds no change", rec.Dir)
	}
	from := "snapshot " + rec.Base[:min(len(rec.Base), 7)]
	if rec.Branch != "" {
		from += ", kept on " + rec.Branch
	}
	iso := &isolated{w: w, tree: tree, record: rec, from: from, meta: meta, change: change, ended: true}
	if meta.Parent == event.MainAgent {
		iso.caller = main // told what the person decided, before its next step
	}
	iso.review = newReview(iso)
	restoreDecisions(&iso.review, rec.Decisions)
	w.mu.Lock()
	w.open[meta.Agent] = iso
	w.mu.Unlock()
	return iso, nil
}

// keepDecisions writes what was decided so far into the worktree's
// record, so a review the session's end interrupts resumes where it was.
func (iso *isolated) keepDecisions() {
	if iso.finished {
		return
	}
	iso.version++
	iso.record.Decisions = map[string][]string{}
	for _, f := range iso.review.Files {
		decisions := []string{f.Decision}
		if len(f.Hunks) > 0 {
			decisions = decisions[:0]
			for _, h := range f.Hunks {
				decisions = append(decisions, h.Decision)
			}
		}
		iso.record.Decisions[f.Path] = decisions
	}
	_ = iso.record.Save() // at worst the review starts over after a resume
}

// restoreDecisions applies kept decisions to a review read afresh; a
// file whose hunks no longer match is left undecided.
func restoreDecisions(r *event.Review, kept map[string][]string) {
	for i := range r.Files {
		f := &r.Files[i]
		d, ok := kept[f.Path]
		switch {
		case !ok:
		case len(f.Hunks) == 0 && len(d) == 1:
			f.Decision = d[0]
		case len(f.Hunks) == len(d):
			for h := range f.Hunks {
				f.Hunks[h].Decision = d[h]
			}
		}
	}
}
