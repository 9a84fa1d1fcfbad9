package child

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/sandbox"
	"github.com/seed-e4e525a6/baton/engine/worktree"
)

// worktrees keeps a session's worktree children: each tree while its
// child runs, and its change while the change waits for review.
type worktrees struct {
	m    *Manager
	root string
	// session names this session's folder under root.
	session string

	mu   sync.Mutex
	open map[event.AgentID]*isolated
	kept []KeptWorktree
	// previews are the fan-in previews that may still be verified and
	// applied, by id; merges what headless --worktrees apply did.
	previews map[string]*preview
	previewN int
	merges   []Merge
	// merging serialises headless fan-ins.
	merging sync.Mutex
}

// isolated is one worktree child.
type isolated struct {
	w      *worktrees
	tree   worktree.Tree
	record worktree.Record
	from   string
	meta   event.Meta
	// caller is told what the person decided, before its next step.
	caller agent.Caller

	// box is the sandbox of the child's commands before it was moved to
	// the worktree, for verifying a merge its change takes part in.
	box sandbox.Policy

	// mu serialises reviewing: two applies of one change never overlap.
	mu       sync.Mutex
	change   worktree.Change
	review   event.Review
	finished bool
	// ended says the child's end was reported (see ready); check is its
	// verify run (nil: none); version counts the decisions on it, so a
	// fan-in previewed before one is not applied after it.
	ended   bool
	check   *Verifier
	version int
}

// KeptWorktree is a child's change left in its worktree, committed on a
// branch: by --worktrees keep, or because the session ended before the
// person reviewed it.
type KeptWorktree struct {
	Agent       event.AgentID `json:"agent"`
	Description string        `json:"description"`
	Path        string        `json:"path"`
	Branch      string        `json:"branch"`
	Change      string        `json:"change"`
}

// newWorktrees readies the session's worktree keeping; nothing touches
// the disk until a child gets a worktree.
func newWorktrees(m *Manager) *worktrees {
	root := m.opts.Worktrees.Root
	if root == "" {
		root = DefaultWorktreeRoot(os.Getenv)
	}
	session := m.opts.SessionID
	if session == "" {
		session = time.Now().UTC().Format("20060102-1504") + "-" + strings.ToLower(rand.Text()[:4])
	}
	return &worktrees{m: m, root: root, session: session, open: map[event.AgentID]*isolated{}}
}

// DefaultWorktreeRoot is where worktrees live unless configured:
// $XDG_STATE_HOME/baton/worktrees, or $HOME/.local/state/baton/worktrees;
// "" when neither is known.
func DefaultWorktreeRoot(getenv func(string) string) string {
	if state := getenv("XDG_STATE_HOME"); filepath.IsAbs(state) {
		return filepath.Join(state, "baton", "worktrees")
	}
	if home := getenv("HOME"); filepath.IsAbs(home) {
		return filepath.Join(home, ".local", "state", "baton", "worktrees")
	}
	return ""
}

// create snapshots the person's tree and adds a worktree for child id. A
// workspace outside git is refused with ErrNotRepository.
func (w *worktrees) create(ctx context.Context, meta event.Meta, caller agent.Caller) (*isolated, error) {
	if w.root == "" {
		return nil, errors.New("no state folder for worktrees (neither XDG_STATE_HOME nor HOME is set)")
	}
	repo, err := worktree.Open(ctx, w.m.opts.Workspace.Root())
	if err != nil {
		return nil, err
	}
	snap, err := repo.Take(ctx, filepath.Join(w.root, ".scratch"))
	if err != nil {
		return nil, err
	}
	dir := worktree.Location(w.root, repo.Top, w.session, string(meta.Agent))
	tree, err := repo.Add(ctx, dir, snap)
	if err != nil {
		return nil, err
	}
	rec := worktree.Record{Dir: tree.Dir, Repo: repo.Top, Base: snap.Commit, Session: w.session, Agent: string(meta.Agent),
		Description: meta.Description, State: worktree.StateRunning, Created: time.Now()}
	if err := rec.Save(); err != nil {
		_ = tree.Remove(ctx)
		return nil, err
	}
	iso := &isolated{w: w, tree: tree, record: rec, from: snap.Describe(), meta: meta, caller: caller}
	w.mu.Lock()
	w.open[meta.Agent] = iso
	w.mu.Unlock()
	return iso, nil
}

// get returns the worktree child id, if it is still open.
func (w *worktrees) get(id event.AgentID) (*isolated, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	iso, ok := w.open[id]
	if !ok {
		return nil, fmt.Errorf("sub-agent %q has no change waiting for review", id)
	}
	return iso, nil
}

// forget drops a child whose worktree is gone or kept.
func (w *worktrees) forget(id event.AgentID) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.open, id)
}

// branch is the branch a kept change is committed on.
func (iso *isolated) branch() string {
	return "baton/" + iso.w.session + "/" + string(iso.meta.Agent)
}

// remove deletes the worktree and its record.
func (iso *isolated) remove(ctx context.Context) error {
	iso.w.forget(iso.meta.Agent)
	err := iso.tree.Remove(ctx)
	if err == nil {
		iso.record.Forget()
	}
	return err
}

// keep commits the change on its branch and leaves the worktree for the
// person.
func (iso *isolated) keep(ctx context.Context) (KeptWorktree, error) {
	iso.w.forget(iso.meta.Agent)
	k := KeptWorktree{Agent: iso.meta.Agent, Description: iso.meta.Description, Path: iso.tree.Dir, Change: changeOf(iso.change, "").Line()}
	if iso.record.State == worktree.StateKept && iso.record.Branch != "" {
		// Reopened after a resume: its branch holds the change already.
		k.Branch = iso.record.Branch
		iso.w.mu.Lock()
		iso.w.kept = append(iso.w.kept, k)
		iso.w.mu.Unlock()
		return k, iso.record.Save()
	}
	if err := iso.tree.Keep(ctx, iso.branch(), fmt.Sprintf("baton: %s (%s)", iso.meta.Description, iso.meta.Agent)); err != nil {
		return k, err
	}
	k.Branch = iso.branch()
	iso.record.State, iso.record.Branch = worktree.StateKept, k.Branch
	iso.w.mu.Lock()
	iso.w.kept = append(iso.w.kept, k)
	iso.w.mu.Unlock()
	return k, iso.record.Save()
}

// Kept lists the worktrees left for the person so far: by --worktrees
// keep, or, once the session is closed, every change nobody reviewed.
func (m *Manager) Kept() []KeptWorktree {
	m.wt.mu.Lock()
	defer m.wt.mu.Unlock()
	return append([]KeptWorktree(nil), m.wt.kept...)
}

// closeAll runs when the session ends: an unreviewed change is kept on
// its branch (never lost), a worktree without one is removed.
func (w *worktrees) closeAll() {
	w.mu.Lock()
	var all []*isolated
	for _, iso := range w.open {
		all = append(all, iso)
	}
	w.mu.Unlock()
	ctx := context.Background()
	for _, iso := range all {
		iso.mu.Lock()
		pending := !iso.finished && len(iso.change.Files) > 0
		iso.finished = true
		iso.mu.Unlock()
		if !pending {
			_ = iso.remove(ctx)
			continue
		}
		if _, err := iso.keep(ctx); err != nil {
			w.mu.Lock()
			w.kept = append(w.kept, KeptWorktree{Agent: iso.meta.Agent, Description: iso.meta.Description, Path: iso.tree.Dir,
				Change: "uncommitted: " + err.Error()})
			w.mu.Unlock()
		}
	}
}

// pruneDue reports, from the file system alone, whether the repository
// may hold records of worktrees for prune to look at.
func (w *worktrees) pruneDue() bool {
	return w.root != "" && worktree.MayHaveRecords(w.m.opts.Workspace.Root())
}

// prune forgets git's records of this repository's worktrees that
// vanished from the state folder; it runs once as the session starts,
// and starts git only when the repository has such records at all.
func (w *worktrees) prune(ctx context.Context) {
	if !w.pruneDue() {
		return
	}
	repo, err := worktree.Open(ctx, w.m.opts.Workspace.Root())
	if err != nil {
		return
	}
	_ = worktree.PruneAdmin(ctx, repo.Top, w.root)
}

// changeOf is the fold line's view of a change.
func changeOf(c worktree.Change, state string) event.Change {
	added, removed, files := c.Counts()
	return event.Change{Added: added, Removed: removed, Files: files, State: state}
}
