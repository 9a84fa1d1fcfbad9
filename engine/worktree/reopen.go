package worktree

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Reopen finds again the worktree a record describes, after the session
// that made it ended (a change kept on its branch, or left pending by a
// crash), so its change can be reviewed. Its git directory is looked up
// in the repository's own list of worktrees, never read from the
// worktree's .git, which the child could have rewritten.
func (r Repo) Reopen(ctx context.Context, rec Record) (Tree, error) {
	if rec.Repo != r.Top {
		return Tree{}, fmt.Errorf("reopen worktree %s: it belongs to %s, not %s", rec.Dir, rec.Repo, r.Top)
	}
	common, err := git(ctx, r.Top, nil, "rev-parse", "--path-format=absolute", "--git-common-dir")
	if err != nil {
		return Tree{}, fmt.Errorf("reopen worktree %s: %w", rec.Dir, err)
	}
	admin, err := filepath.EvalSymlinks(filepath.Join(strings.TrimSpace(common), "worktrees"))
	if err != nil {
		return Tree{}, fmt.Errorf("reopen worktree %s: %w", rec.Dir, err)
	}
	entries, err := os.ReadDir(admin)
	if err != nil {
		return Tree{}, fmt.Errorf("reopen worktree %s: %w", rec.Dir, err)
	}
	for _, e := range entries {
		gitdir, err := os.ReadFile(filepath.Join(admin, e.Name(), "gitdir"))
		if err != nil {
			continue
		}
		if dir, err := filepath.EvalSymlinks(filepath.Dir(strings.TrimSpace(string(gitdir)))); err != nil || dir != rec.Dir {
			continue
		}
		return Tree{Repo: r, Dir: rec.Dir, Base: rec.Base, gitDir: filepath.Join(admin, e.Name())}, nil
	}
	return Tree{}, fmt.Errorf("reopen worktree %s: %w", rec.Dir, errors.New("git no longer knows it"))
}
