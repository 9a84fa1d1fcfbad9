package worktree

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// ErrNotRepository says the workspace is not inside a git work tree, so
// a child cannot be given a worktree of it.
var ErrNotRepository = errors.New("not a git repository")

// Repo is the git work tree a workspace lies in.
type Repo struct {
	// Top is the work tree's root; Sub is the workspace relative to it
	// ("" when they are the same), so a child's workspace is the same
	// folder inside its worktree.
	Top string
	Sub string
}

// Open finds the git work tree holding workspace.
func Open(ctx context.Context, workspace string) (Repo, error) {
	out, err := git(ctx, workspace, nil, "rev-parse", "--is-inside-work-tree", "--show-toplevel")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if err != nil || len(lines) != 2 || lines[0] != "true" {
		return Repo{}, fmt.Errorf("%s: %w", workspace, ErrNotRepository)
	}
	top, err := filepath.EvalSymlinks(lines[1])
	if err != nil {
		return Repo{}, fmt.Errorf("open repository: %w", err)
	}
	real, err := filepath.EvalSymlinks(workspace)
	if err != nil {
		return Repo{}, fmt.Errorf("open repository: %w", err)
	}
	sub, err := filepath.Rel(top, real)
	if err != nil || strings.HasPrefix(sub, "..") {
		return Repo{}, fmt.Errorf("%s is outside its work tree %s: %w", workspace, top, ErrNotRepository)
	}
	if sub == "." {
		sub = ""
	}
	return Repo{Top: top, Sub: sub}, nil
}

// Snapshot is the state a worktree starts from.
type Snapshot struct {
	// Commit holds the person's working tree as it was: HEAD itself when
	// nothing was changed, else a commit on top of HEAD (no parent on an
	// unborn branch) that no ref names.
	Commit string
	// Head is HEAD's commit ("" on an unborn branch); Branch its branch
	// ("" when detached).
	Head, Branch string
	// Dirty says the working tree had uncommitted or untracked changes.
	Dirty bool
}

// Describe says what a worktree starts from, for the delegation card:
// "main@1a2b3c4 + uncommitted changes".
func (s Snapshot) Describe() string {
	at := "an unborn branch"
	if s.Head != "" {
		at = short(s.Head)
		if s.Branch != "" {
			at = s.Branch + "@" + at
		}
	}
	if s.Dirty {
		return at + " + uncommitted changes"
	}
	return at
}

// Take records the work tree's current files (tracked changes and
// untracked files that are not ignored) in a commit, through a private
// copy of the index: the person's files, index and stash list are left
// exactly as they were.
func (r Repo) Take(ctx context.Context, scratch string) (Snapshot, error) {
	var s Snapshot
	if head, err := git(ctx, r.Top, nil, "rev-parse", "--verify", "-q", "HEAD^{commit}"); err == nil {
		s.Head = strings.TrimSpace(head)
	}
	if ref, err := git(ctx, r.Top, nil, "symbolic-ref", "-q", "--short", "HEAD"); err == nil {
		s.Branch = strings.TrimSpace(ref)
	}
	index, err := r.privateIndex(ctx, scratch, s.Head)
	if err != nil {
		return s, err
	}
	defer os.Remove(index)
	env := []string{"GIT_INDEX_FILE=" + index}
	if _, err := git(ctx, r.Top, env, "add", "-A", "--", "."); err != nil {
		return s, fmt.Errorf("snapshot: %w", err)
	}
	tree, err := git(ctx, r.Top, env, "write-tree")
	if err != nil {
		return s, fmt.Errorf("snapshot: %w", err)
	}
	tree = strings.TrimSpace(tree)
	if s.Head != "" {
		headTree, err := git(ctx, r.Top, nil, "rev-parse", "HEAD^{tree}")
		if err == nil && strings.TrimSpace(headTree) == tree {
			s.Commit = s.Head
			return s, nil
		}
	}
	args := []string{"commit-tree", tree, "-m", "baton snapshot of the working tree"}
	if s.Head != "" {
		args = append(args, "-p", s.Head)
	}
	commit, err := git(ctx, r.Top, nil, args...)
	if err != nil {
		return s, fmt.Errorf("snapshot: %w", err)
	}
	s.Commit, s.Dirty = strings.TrimSpace(commit), true
	return s, nil
}

// privateIndex copies the person's index into scratch (its file stats
// spare rehashing unchanged files), or builds one from HEAD when there
// is none, and returns its path.
func (r Repo) privateIndex(ctx context.Context, scratch, head string) (string, error) {
	if err := os.MkdirAll(scratch, 0o700); err != nil {
		return "", fmt.Errorf("snapshot: %w", err)
	}
	f, err := os.CreateTemp(scratch, "index-*")
	if err != nil {
		return "", fmt.Errorf("snapshot: %w", err)
	}
	path := f.Name()
	defer f.Close()
	fail := func(err error) (string, error) {
		_ = os.Remove(path)
		return "", fmt.Errorf("snapshot: %w", err)
	}
	real, err := git(ctx, r.Top, nil, "rev-parse", "--path-format=absolute", "--git-path", "index")
	if err != nil {
		return fail(err)
	}
	if src, err := os.Open(strings.TrimSpace(real)); err == nil {
		_, err = io.Copy(f, src)
		_ = src.Close()
		if err != nil {
			return fail(err)
		}
		return path, nil
	}
	// git refuses an empty index file; read-tree writes a fresh one.
	_ = os.Remove(path)
	if head == "" {
		return path, nil
	}
	if _, err := git(ctx, r.Top, []string{"GIT_INDEX_FILE=" + path}, "read-tree", head); err != nil {
		return fail(err)
	}
	return path, nil
}

// short is a commit's abbreviated name.
func short(commit string) string {
	if len(commit) > 7 {
		return commit[:7]
	}
	return commit
}
