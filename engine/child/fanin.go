package child

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/fanin"
	"github.com/seed-e4e525a6/baton/engine/sandbox"
	"github.com/seed-e4e525a6/baton/engine/tools"
	"github.com/seed-e4e525a6/baton/engine/worktree"
)

// maxPreviews bounds the fan-in previews kept for verifying and applying;
// an older one has to be previewed again.
const maxPreviews = 8

// preview is a fan-in the person may verify and apply: the merge as it
// was worked out, and each change's review as it stood then.
type preview struct {
	view     event.FanIn
	plan     fanin.Plan
	isos     map[event.AgentID]*isolated
	versions map[event.AgentID]int
	// verifier runs the chosen changes' verify commands (nil: none has
	// any); box is the sandbox they run in, before it is moved to the
	// scratch worktree.
	verifier *Verifier
	box      sandbox.Policy
}

// PreviewFanIn merges every chosen change waiting for review onto the
// person's tree, in memory: which files each touches, where they overlap
// or conflict, and the order in which they merge cleanly. chosen nil
// chooses every change that did not fail its own verification. Nothing
// is written anywhere.
func (m *Manager) PreviewFanIn(ctx context.Context, chosen []event.AgentID) (event.FanIn, error) {
	pending := m.wt.pending()
	if len(pending) == 0 {
		return event.FanIn{}, errors.New("no change waits for review")
	}
	p := &preview{isos: map[event.AgentID]*isolated{}, versions: map[event.AgentID]int{}}
	var parts []fanin.Part
	for _, iso := range pending {
		iso.mu.Lock()
		part, change, review, version := iso.part()
		check := iso.check
		iso.mu.Unlock()
		take := review.Verify == nil || review.Verify.Passed
		if chosen != nil {
			take = slices.Contains(chosen, iso.meta.Agent)
		}
		p.view.Changes = append(p.view.Changes, event.FanInChange{Agent: iso.meta.Agent, Number: iso.meta.Number, AgentType: iso.meta.AgentType,
			Description: iso.meta.Description, Chosen: take, Change: change})
		if !take {
			continue
		}
		p.isos[iso.meta.Agent], p.versions[iso.meta.Agent] = iso, version
		parts = append(parts, part)
		if check != nil {
			if p.verifier == nil {
				p.verifier, p.box = &Verifier{Timeout: m.verifyTimeout(), Limits: check.Limits}, iso.box
			}
			for _, c := range check.Commands {
				if !slices.Contains(p.verifier.Commands, c) {
					p.verifier.Commands = append(p.verifier.Commands, c)
				}
			}
		}
	}
	plan, err := fanin.Preview(ctx, parts, m.readPerson)
	if err != nil {
		return event.FanIn{}, fmt.Errorf("preview the merge: %w", err)
	}
	p.plan = plan
	p.view.Order, p.view.Skipped = plan.Order, plan.Skipped
	for _, f := range plan.Files {
		p.view.Files = append(p.view.Files, event.FanInFile{Path: f.Path, By: f.By, Conflicting: f.Conflicting})
	}
	for _, l := range plan.Left {
		p.view.Left = append(p.view.Left, event.FanInLeft{Agent: l.Agent, Path: l.Path, With: l.With, Regions: l.Regions})
	}
	if p.verifier != nil {
		p.view.Commands = p.verifier.Commands
	}
	return m.wt.keepPreview(p), nil
}

// readPerson reads one of the person's files (path from the repository's
// top) through the workspace's guarded, locked path.
func (m *Manager) readPerson(ctx context.Context, path string) ([]byte, bool, error) {
	repo, err := worktree.Open(ctx, m.opts.Workspace.Root())
	if err != nil {
		return nil, false, err
	}
	var data []byte
	var exists bool
	err = m.opts.Workspace.Update(ctx, filepath.Join(repo.Top, filepath.FromSlash(path)), func(old []byte, ok bool) (tools.FileUpdate, error) {
		data, exists = old, ok
		return tools.FileUpdate{Keep: true}, nil
	})
	return data, exists, err
}

// VerifyFanIn runs the verify commands of a preview's changes on their
// merged result, laid out in a scratch worktree taken from the person's
// tree as it is now, in the sandbox the changes' own verification ran in.
func (m *Manager) VerifyFanIn(ctx context.Context, id string) (event.FanIn, error) {
	p, err := m.wt.preview(id)
	if err != nil {
		return event.FanIn{}, err
	}
	// A closing session stops the verification as it stops its children.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(m.ctx, cancel)()
	switch {
	case p.verifier == nil:
		return event.FanIn{}, errors.New("no chosen change has a verify command, so the merged result cannot be verified")
	case len(p.plan.Order) == 0:
		return event.FanIn{}, errors.New("no chosen change merges, so there is nothing to verify")
	}
	repo, err := worktree.Open(ctx, m.opts.Workspace.Root())
	if err != nil {
		return event.FanIn{}, err
	}
	dir := worktree.Location(m.wt.root, repo.Top, m.wt.session, "merge-"+id)
	var v event.Verification
	err = p.plan.InScratch(ctx, repo, filepath.Join(m.wt.root, ".scratch"), dir, func(ws *tools.Workspace) {
		run := *p.verifier
		run.Sandbox = p.box.In(ws.Root())
		v = run.Run(ctx, ws)
	})
	if err != nil {
		return event.FanIn{}, fmt.Errorf("verify the merged result: %w", err)
	}
	return m.wt.setVerified(id, v), nil
}

// ApplyFanIn writes a preview's merge to the person's tree: every change
// in its order, all of them or none. Only a merge whose verification
// passed is applied, unless unverified says the person chose to apply it
// without. The changes' callers are told what was applied and how the
// merged result's verification ended.
func (m *Manager) ApplyFanIn(ctx context.Context, id string, unverified bool) (event.FanInApplied, error) {
	p, err := m.wt.preview(id)
	if err != nil {
		return event.FanInApplied{}, err
	}
	v := p.view.Verify
	switch {
	case len(p.plan.Order) == 0:
		return event.FanInApplied{}, errors.New("no chosen change merges cleanly; nothing was applied")
	case !unverified && !p.view.Verified():
		return event.FanInApplied{}, fmt.Errorf("the merged result is not verified (%s); nothing was applied", unverifiedWhy(p))
	}
	isos := make([]*isolated, 0, len(p.plan.Order))
	for _, agent := range p.plan.Order {
		isos = append(isos, p.isos[agent])
	}
	slices.SortFunc(isos, func(a, b *isolated) int { return cmp.Compare(a.meta.Agent, b.meta.Agent) })
	for _, iso := range isos {
		iso.mu.Lock()
		defer iso.mu.Unlock()
	}
	for _, iso := range isos {
		if iso.finished || iso.version != p.versions[iso.meta.Agent] {
			return event.FanInApplied{}, fmt.Errorf("the change of %s was decided on since the merge was previewed; preview it again; nothing was applied", iso.meta.Agent)
		}
	}
	repo, err := worktree.Open(ctx, m.opts.Workspace.Root())
	if err != nil {
		return event.FanInApplied{}, err
	}
	written, err := p.plan.Apply(ctx, m.opts.Workspace, repo.Top)
	if err != nil {
		return event.FanInApplied{}, fmt.Errorf("%w; %s", err, landed(written))
	}
	out := event.FanInApplied{Applied: p.plan.Order, Files: written, Verify: v, Unverified: !p.view.Verified()}
	callers := map[event.AgentID]func(string){}
	for _, iso := range isos {
		iso.decideAll(event.DecisionApplied)
		iso.keepDecisions()
		iso.settleIfDone(false)
		if iso.caller.Tell != nil {
			callers[iso.caller.Meta.Agent] = iso.caller.Tell
		}
	}
	m.wt.dropPreview(id)
	note := fanInNote(out)
	for _, tell := range callers {
		tell(note)
	}
	return out, nil
}

// unverifiedWhy says why a preview's merge is not verified.
func unverifiedWhy(p *preview) string {
	switch {
	case p.verifier == nil:
		return "no chosen change has a verify command"
	case p.view.Verify == nil:
		return "its verification has not run"
	}
	return strings.TrimPrefix(p.view.Verify.Mark(), "✗ ")
}

// fanInNote is what the parent model is told of a merge that was
// applied.
func fanInNote(a event.FanInApplied) string {
	ids := make([]string, len(a.Applied))
	for i, id := range a.Applied {
		ids[i] = string(id)
	}
	note := fmt.Sprintf("The changes of sub-agents %s were merged and applied to the working tree together (%s).", strings.Join(ids, ", "), strings.Join(a.Files, ", "))
	switch {
	case a.Verify == nil:
		note += " The merged result was not verified: no verify command applies."
	case a.Verify.Passed:
		note += " " + verifyNote("The merged result", *a.Verify)
	default:
		note += " It was applied unverified: " + verifyNote("the merged result", *a.Verify)
	}
	return note
}

// part is the change as it enters a fan-in (its undecided files and
// hunks), its counts, its review and its version; iso.mu is held.
func (iso *isolated) part() (fanin.Part, event.Change, event.Review, int) {
	part := fanin.Part{Agent: iso.meta.Agent, Tree: iso.tree}
	var files []worktree.File
	for fi, f := range iso.change.Files {
		rf := iso.review.Files[fi]
		chosen := func(h int) bool {
			if len(rf.Hunks) == 0 {
				return rf.Decision == event.DecisionPending
			}
			return rf.Hunks[h].Decision == event.DecisionPending
		}
		part.Files, part.Chosen = append(part.Files, f), append(part.Chosen, chosen)
		if rf.Pending() {
			files = append(files, f)
		}
	}
	change := changeOf(worktree.Change{Files: files}, event.ChangePending)
	change.Verify = iso.review.Verify
	return part, change, copyReview(iso.review), iso.version
}

// decideAll decides everything still undecided of the change: applied,
// but a symbolic link, which is never written, is skipped.
func (iso *isolated) decideAll(d string) {
	for fi := range iso.review.Files {
		rf := &iso.review.Files[fi]
		decision := d
		if rf.Symlink {
			decision = event.DecisionSkipped
		}
		if len(rf.Hunks) == 0 && rf.Decision == event.DecisionPending {
			rf.Decision = decision
		}
		for hi := range rf.Hunks {
			if rf.Hunks[hi].Decision == event.DecisionPending {
				rf.Hunks[hi].Decision = decision
			}
		}
	}
}

// pending are the changes waiting for review, by their children's
// numbers.
func (w *worktrees) pending() []*isolated {
	w.mu.Lock()
	var all []*isolated
	for _, iso := range w.open {
		all = append(all, iso)
	}
	w.mu.Unlock()
	var out []*isolated
	for _, iso := range all {
		iso.mu.Lock()
		if iso.ended && !iso.finished && len(iso.change.Files) > 0 {
			out = append(out, iso)
		}
		iso.mu.Unlock()
	}
	slices.SortFunc(out, func(a, b *isolated) int { return cmp.Compare(a.meta.Number, b.meta.Number) })
	return out
}

// keepPreview stores p under a new id and returns its view.
func (w *worktrees) keepPreview(p *preview) event.FanIn {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.previewN++
	p.view.ID = fmt.Sprint(w.previewN)
	if w.previews == nil {
		w.previews = map[string]*preview{}
	}
	w.previews[p.view.ID] = p
	delete(w.previews, fmt.Sprint(w.previewN-maxPreviews))
	return p.view
}

// preview finds a kept preview.
func (w *worktrees) preview(id string) (*preview, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	p, ok := w.previews[id]
	if !ok {
		return nil, fmt.Errorf("merge preview %q is gone; preview the merge again", id)
	}
	return p, nil
}

// setVerified records the verification of preview id's merge.
func (w *worktrees) setVerified(id string, v event.Verification) event.FanIn {
	w.mu.Lock()
	defer w.mu.Unlock()
	p, ok := w.previews[id]
	if !ok {
		return event.FanIn{ID: id, Verify: &v}
	}
	p.view.Verify = &v
	return p.view
}

// dropPreview forgets an applied preview.
func (w *worktrees) dropPreview(id string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.previews, id)
}
