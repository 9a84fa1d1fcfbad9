package worktree

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Tree is one child's worktree: a detached checkout of a snapshot in
// baton's state folder.
type Tree struct {
	Repo Repo
	// Dir is the worktree's root; Base the snapshot commit it started at.
	Dir  string
	Base string
	// gitDir is the git directory git made for the worktree, read as the
	// worktree was added, before any child worked in it.
	gitDir string
}

// Workspace is the child's workspace: the same folder of the repository
// the parent works in, inside the worktree.
func (t Tree) Workspace() string { return filepath.Join(t.Dir, t.Repo.Sub) }

// Add checks the snapshot out into dir, which must not exist yet; its
// parent folders are made private to the person.
func (r Repo) Add(ctx context.Context, dir string, snap Snapshot) (Tree, error) {
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		return Tree{}, fmt.Errorf("add worktree: %w", err)
	}
	if _, err := os.Lstat(dir); err == nil {
		return Tree{}, fmt.Errorf("add worktree: %s already exists", dir)
	}
	if _, err := git(ctx, r.Top, nil, "worktree", "add", "--detach", "--quiet", dir, snap.Commit); err != nil {
		return Tree{}, fmt.Errorf("add worktree: %w", err)
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return Tree{}, fmt.Errorf("add worktree: %w", err)
	}
	t := Tree{Repo: r, Dir: real, Base: snap.Commit}
	if t.gitDir, err = r.adminDir(ctx, real); err != nil {
		_ = t.Remove(ctx)
		return Tree{}, fmt.Errorf("add worktree: %w", err)
	}
	return t, nil
}

// adminDir is the git directory of the worktree just added at dir, which
// git keeps under the repository's common dir ("worktrees/<name>").
func (r Repo) adminDir(ctx context.Context, dir string) (string, error) {
	common, err := git(ctx, r.Top, nil, "rev-parse", "--path-format=absolute", "--git-common-dir")
	if err != nil {
		return "", err
	}
	own, err := git(ctx, dir, nil, "rev-parse", "--absolute-git-dir")
	if err != nil {
		return "", err
	}
	admin, err := filepath.EvalSymlinks(filepath.Join(strings.TrimSpace(common), "worktrees"))
	if err != nil {
		return "", err
	}
	gitDir, err := filepath.EvalSymlinks(strings.TrimSpace(own))
	if err != nil {
		return "", err
	}
	if filepath.Dir(gitDir) != admin {
		return "", fmt.Errorf("%s names the git directory %s, not one under %s", dir, gitDir, admin)
	}
	return gitDir, nil
}

// git runs one git command on the worktree, naming its git directory and
// work tree outright. A child can rewrite its worktree's `.git` (a
// "gitdir:" line, a symbolic link) to point at the person's repository,
// and git would follow it: baton's own add, switch and commit would then
// stage into the person's index and move the person's HEAD.
func (t Tree) git(ctx context.Context, env []string, args ...string) (string, error) {
	out, err := t.gitBytes(ctx, env, args...)
	return string(out), err
}

// gitBytes is Tree.git with byte output.
func (t Tree) gitBytes(ctx context.Context, env []string, args ...string) ([]byte, error) {
	if t.gitDir == "" {
		return nil, fmt.Errorf("git %s: worktree %s has no git directory of its own", args[0], t.Dir)
	}
	own := []string{"GIT_DIR=" + t.gitDir, "GIT_WORK_TREE=" + t.Dir}
	return gitBytes(ctx, t.Dir, append(own, env...), nil, args...)
}

// Remove deletes the worktree and git's record of it. A folder git no
// longer knows is deleted all the same.
func (t Tree) Remove(ctx context.Context) error {
	_, err := git(ctx, t.Repo.Top, nil, "worktree", "remove", "--force", "--force", t.Dir)
	if _, statErr := os.Lstat(t.Dir); errors.Is(statErr, fs.ErrNotExist) {
		return nil
	}
	if rmErr := os.RemoveAll(t.Dir); rmErr != nil {
		return fmt.Errorf("remove worktree %s: %w", t.Dir, errors.Join(err, rmErr))
	}
	_ = PruneAdmin(ctx, t.Repo.Top, filepath.Dir(t.Dir))
	return nil
}

// Keep commits the child's change in the worktree on a new branch, so it
// survives the session and can be merged by hand: git merge, cherry-pick
// or diff against the branch.
func (t Tree) Keep(ctx context.Context, branch, message string) error {
	if _, err := t.git(ctx, nil, "switch", "--quiet", "-c", branch); err != nil {
		return fmt.Errorf("keep worktree: %w", err)
	}
	if _, err := t.git(ctx, nil, "add", "-A", "--", "."); err != nil {
		return fmt.Errorf("keep worktree: %w", err)
	}
	if _, err := t.git(ctx, nil, "commit", "--quiet", "--no-verify", "--allow-empty", "-m", message); err != nil {
		return fmt.Errorf("keep worktree: %w", err)
	}
	return nil
}

// PruneAdmin removes git's records of worktrees that lived under root
// and whose folders are gone: what `git worktree prune` does, limited to
// baton's own, so a worktree of the person's on an unmounted disk is
// never forgotten.
func PruneAdmin(ctx context.Context, repoTop, root string) error {
	common, err := git(ctx, repoTop, nil, "rev-parse", "--path-format=absolute", "--git-common-dir")
	if err != nil {
		return fmt.Errorf("prune worktrees: %w", err)
	}
	admin := filepath.Join(strings.TrimSpace(common), "worktrees")
	entries, err := os.ReadDir(admin)
	if err != nil {
		return nil
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		realRoot = filepath.Clean(root)
	}
	for _, e := range entries {
		gitdir, err := os.ReadFile(filepath.Join(admin, e.Name(), "gitdir"))
		if err != nil {
			continue
		}
		dir := filepath.Dir(strings.TrimSpace(string(gitdir)))
		if !inside(realRoot, dir) && !inside(filepath.Clean(root), dir) {
			continue
		}
		if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
			_ = os.RemoveAll(filepath.Join(admin, e.Name()))
		}
	}
	return nil
}

// MayHaveRecords reports, from the file system alone, whether the
// repository around dir may hold records of linked worktrees for
// PruneAdmin to look at: false when no .git is found from dir up, or when
// it is a folder without a worktrees folder, the case of nearly every
// start, which then runs no git at all. A .git file (dir is itself a
// linked worktree or a submodule) may lead anywhere: git is asked.
func MayHaveRecords(dir string) bool {
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if fi, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			if !fi.IsDir() {
				return true
			}
			_, err := os.Lstat(filepath.Join(d, ".git", "worktrees"))
			return err == nil
		}
		if filepath.Dir(d) == d {
			return false
		}
	}
}

// inside reports whether p lies strictly below dir.
func inside(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
