package child

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/tools"
	"github.com/seed-e4e525a6/baton/engine/worktree"
)

// Review returns a worktree child's change as it stands: files, hunks
// and what was decided on each so far.
func (m *Manager) Review(id event.AgentID) (event.Review, error) {
	iso, err := m.wt.get(id)
	if err != nil {
		return event.Review{}, err
	}
	iso.mu.Lock()
	defer iso.mu.Unlock()
	return copyReview(iso.review), nil
}

// ApplyChange merges part of a child's change into the person's working
// tree with a three-way merge against its snapshot: every undecided file
// (file < 0), one file's undecided hunks (hunk < 0), or one hunk. Every
// file is checked first, and when any cannot be applied nothing is
// written. With resolution "" a conflict is returned, and nothing of that
// file written, so the person can see both sides and call again with
// "mine", "child" or "markers". Files before the conflicting one stay
// applied.
func (m *Manager) ApplyChange(ctx context.Context, id event.AgentID, file, hunk int, resolution string) (*event.ReviewConflict, error) {
	iso, err := m.wt.get(id)
	if err != nil {
		return nil, err
	}
	iso.mu.Lock()
	defer iso.mu.Unlock()
	if iso.finished {
		return nil, fmt.Errorf("the change of %s was already reviewed", id)
	}
	conflict, applied, err := iso.applyFiles(ctx, m.opts.Workspace, iso.targets(file), hunk, worktree.Resolution(resolution))
	iso.keepDecisions()
	if err != nil {
		return nil, fmt.Errorf("%w; %s", err, landed(applied))
	}
	if conflict != nil {
		return conflict, nil
	}
	iso.settleIfDone(true)
	return nil, nil
}

// landed says which files of a change reached the person's tree before
// applying it stopped.
func landed(applied []string) string {
	if len(applied) == 0 {
		return "nothing was applied"
	}
	return "applied before it stopped: " + strings.Join(applied, ", ")
}

// SkipChange leaves part of a child's change out (file < 0: all that is
// undecided, which discards the rest of the change).
func (m *Manager) SkipChange(id event.AgentID, file, hunk int) error {
	iso, err := m.wt.get(id)
	if err != nil {
		return err
	}
	iso.mu.Lock()
	defer iso.mu.Unlock()
	for _, fi := range iso.targets(file) {
		rf := &iso.review.Files[fi]
		if len(rf.Hunks) == 0 && rf.Decision == event.DecisionPending {
			rf.Decision = event.DecisionSkipped
		}
		for i := range rf.Hunks {
			if (hunk < 0 || hunk == i) && rf.Hunks[i].Decision == event.DecisionPending {
				rf.Hunks[i].Decision = event.DecisionSkipped
			}
		}
	}
	iso.keepDecisions()
	iso.settleIfDone(true)
	return nil
}

// targets are the file indexes file names (all when it is negative).
func (iso *isolated) targets(file int) []int {
	if file >= 0 {
		if file >= len(iso.review.Files) {
			return nil
		}
		return []int{file}
	}
	out := make([]int, len(iso.review.Files))
	for i := range out {
		out[i] = i
	}
	return out
}

// applyFiles applies the chosen part of each target file. Each merge is
// worked out against the person's file first and nothing is written
// while any file cannot be applied; the planned merge is then written
// unless the person's file changed meanwhile. A conflict (resolution Ask)
// stops at its file. applied names the files whose part was applied.
func (iso *isolated) applyFiles(ctx context.Context, ws *tools.Workspace, targets []int, hunk int, res worktree.Resolution) (*event.ReviewConflict, []string, error) {
	plans := make(map[int]*plannedMerge, len(targets))
	var failed []string
	for _, fi := range targets {
		p, err := iso.plan(ctx, ws, fi, hunk, res)
		if err != nil {
			failed = append(failed, err.Error())
		}
		plans[fi] = p
	}
	if len(failed) > 0 {
		return nil, nil, errors.New(strings.Join(failed, "; "))
	}
	var applied []string
	for _, fi := range targets {
		conflict, done, err := iso.applyFile(ctx, ws, fi, hunk, res, plans[fi])
		if err != nil || conflict != nil {
			return conflict, applied, err
		}
		if done {
			applied = append(applied, iso.change.Files[fi].Path)
		}
	}
	return nil, applied, nil
}

// plannedMerge is one file's merge, worked out before anything is
// written, and the person's file it was worked out against.
type plannedMerge struct {
	merged worktree.Merged
	exists bool
	before [sha256.Size]byte
}

// plan merges the chosen part of file fi with the person's file, through
// the workspace's guarded, locked path, and writes nothing (nil: nothing
// of the file is chosen).
func (iso *isolated) plan(ctx context.Context, ws *tools.Workspace, fi, hunk int, res worktree.Resolution) (*plannedMerge, error) {
	f, chosen, ok := iso.chosen(fi, hunk)
	if !ok {
		return nil, nil
	}
	var p *plannedMerge
	err := ws.Update(ctx, iso.pathOf(f), func(old []byte, exists bool) (tools.FileUpdate, error) {
		m, err := iso.tree.Merge(ctx, f, chosen, old, exists, res)
		if err != nil {
			return tools.FileUpdate{}, err
		}
		p = &plannedMerge{merged: m, exists: exists, before: sha256.Sum256(old)}
		return tools.FileUpdate{Keep: true}, nil
	})
	if err != nil {
		return nil, fmt.Errorf("apply %s: %w", f.Path, err)
	}
	return p, nil
}

// chosen returns file fi, which of its hunks apply, and whether anything
// of it is undecided and chosen.
func (iso *isolated) chosen(fi, hunk int) (worktree.File, func(int) bool, bool) {
	f, rf := iso.change.Files[fi], &iso.review.Files[fi]
	chosen := func(i int) bool { return rf.Hunks[i].Decision == event.DecisionPending && (hunk < 0 || hunk == i) }
	if len(f.Hunks) == 0 {
		return f, chosen, rf.Decision == event.DecisionPending
	}
	return f, chosen, anyChosen(len(f.Hunks), chosen)
}

// pathOf is where a file of the change lies in the person's tree.
func (iso *isolated) pathOf(f worktree.File) string {
	return filepath.Join(iso.tree.Repo.Top, filepath.FromSlash(f.Path))
}

// applyFile writes the planned merge of one file through the workspace's
// guarded, locked write (merging again if the person's file changed
// since it was planned) and records the decision; done says it did.
func (iso *isolated) applyFile(ctx context.Context, ws *tools.Workspace, fi, hunk int, res worktree.Resolution, p *plannedMerge) (*event.ReviewConflict, bool, error) {
	f, chosen, ok := iso.chosen(fi, hunk)
	if !ok {
		return nil, false, nil
	}
	rf := &iso.review.Files[fi]
	var merged worktree.Merged
	err := ws.Update(ctx, iso.pathOf(f), func(old []byte, exists bool) (tools.FileUpdate, error) {
		m := worktree.Merged{}
		if p != nil && p.exists == exists && p.before == sha256.Sum256(old) {
			m = p.merged
		} else {
			var err error
			if m, err = iso.tree.Merge(ctx, f, chosen, old, exists, res); err != nil {
				return tools.FileUpdate{}, err
			}
		}
		merged = m
		if len(m.Conflicts) > 0 || m.Same {
			return tools.FileUpdate{Keep: true}, nil
		}
		return tools.FileUpdate{Data: m.Data, Delete: m.Delete, Executable: m.Executable}, nil
	})
	if err != nil {
		return nil, false, fmt.Errorf("apply %s: %w", f.Path, err)
	}
	if len(merged.Conflicts) > 0 {
		c := &event.ReviewConflict{Path: f.Path}
		for _, r := range merged.Conflicts {
			c.Regions = append(c.Regions, event.ConflictRegion{Mine: r.Mine, Child: r.Child})
		}
		return c, false, nil
	}
	decision := event.DecisionApplied
	if merged.Marked > 0 {
		decision = event.DecisionMarked
	}
	if len(f.Hunks) == 0 {
		rf.Decision = decision
	}
	for i := range rf.Hunks {
		if chosen(i) {
			rf.Hunks[i].Decision = decision
		}
	}
	return nil, true, nil
}

// anyChosen reports whether chosen picks any of n hunks.
func anyChosen(n int, chosen func(int) bool) bool {
	for i := range n {
		if chosen(i) {
			return true
		}
	}
	return false
}

// settleIfDone ends the review once nothing is undecided: the parent is
// told (when tell is set) before its next step, the UI gets
// ReviewFinished and the worktree goes.
func (iso *isolated) settleIfDone(tell bool) {
	for _, f := range iso.review.Files {
		if f.Pending() {
			return
		}
	}
	iso.finished = true
	summary := reviewSummary(iso.review)
	if tell && iso.caller.Tell != nil {
		iso.caller.Tell(reviewNote(iso.meta.Agent, iso.meta.Description, summary))
	}
	meta := iso.meta
	meta.Time = time.Now()
	if err := iso.remove(context.Background()); err != nil {
		iso.w.m.sess.Emit(event.Notice{Meta: meta, Text: "worktree cleanup: " + err.Error()})
	}
	iso.w.m.sess.Emit(event.ReviewFinished{Meta: meta, Change: changeOf(iso.change, event.ChangeReviewed), Summary: summary})
}

// reviewSummary says what was applied, skipped and left with markers.
func reviewSummary(r event.Review) string {
	var applied, skipped, marked []string
	for _, f := range r.Files {
		a, s, m, n := 0, 0, 0, len(f.Hunks)
		decisions := []string{f.Decision}
		if n > 0 {
			decisions = decisions[:0]
			for _, h := range f.Hunks {
				decisions = append(decisions, h.Decision)
			}
		}
		for _, d := range decisions {
			switch d {
			case event.DecisionApplied:
				a++
			case event.DecisionMarked:
				m++
			default:
				s++
			}
		}
		switch {
		case m > 0:
			marked = append(marked, f.Path)
		case a > 0 && s > 0:
			applied = append(applied, fmt.Sprintf("%s (%d of %d hunks)", f.Path, a, n))
		case a > 0:
			applied = append(applied, f.Path)
		default:
			skipped = append(skipped, f.Path)
		}
	}
	if len(applied)+len(marked) == 0 {
		return discardedSummary
	}
	var parts []string
	for _, p := range []struct {
		label string
		list  []string
	}{{"applied", applied}, {"conflict markers left in", marked}, {"skipped", skipped}} {
		if len(p.list) > 0 {
			parts = append(parts, p.label+" "+strings.Join(p.list, ", "))
		}
	}
	return strings.Join(parts, "; ")
}

// newReview lays a change out for the person.
func newReview(iso *isolated) event.Review {
	r := event.Review{Agent: iso.meta.Agent, AgentType: iso.meta.AgentType, Description: iso.meta.Description, Worktree: iso.tree.Dir, From: iso.from}
	for _, f := range iso.change.Files {
		rf := event.ReviewFile{Path: f.Path, Status: string(f.Status), Binary: f.Binary, Symlink: f.Symlink(), Added: f.Added, Removed: f.Removed}
		for _, h := range f.Hunks {
			rh := event.ReviewHunk{Header: h.Header}
			for _, l := range h.Lines {
				rh.Lines = append(rh.Lines, event.DiffLine{Kind: l.Kind, Text: l.Text})
			}
			rf.Hunks = append(rf.Hunks, rh)
		}
		r.Files = append(r.Files, rf)
	}
	return r
}

// copyReview copies a review deep enough that the caller may keep it
// while decisions change.
func copyReview(r event.Review) event.Review {
	files := make([]event.ReviewFile, len(r.Files))
	for i, f := range r.Files {
		f.Hunks = append([]event.ReviewHunk(nil), f.Hunks...)
		files[i] = f
	}
	r.Files = files
	return r
}

// discardedSummary is the review's summary when nothing was applied.
const discardedSummary = "discarded it; nothing was applied"

// reviewNote is what the parent model is told about a finished review;
// only a review that applied something points it at the working tree.
func reviewNote(agent event.AgentID, description, summary string) string {
	note := personNote(fmt.Sprintf("reviewed the change of sub-agent %s (%s): %s", agent, description, summary))
	if summary != discardedSummary {
		note += " What was applied is in the working tree now."
	}
	return note
}
