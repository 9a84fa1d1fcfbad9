package worktree

import (
	"context"
	"fmt"
	"strings"
)

// ResultRef is the ref a remote child's result bundle carries back.
const ResultRef = "refs/heads/baton-result"

// Bundle writes the workspace's current files (uncommitted and untracked
// ones included, as Take records them) to a git bundle at file, as one
// commit without history, so a child elsewhere gets the
// files and nothing of the project's past. It returns that commit: the
// base a result bundle is read against. The person's files, index and
// branches are left as they were; ref (refs/baton/…) keeps the commit and
// names it in the bundle until the result is read (Forget drops it).
func (r Repo) Bundle(ctx context.Context, scratch, file, ref string) (string, error) {
	snap, err := r.Take(ctx, scratch)
	if err != nil {
		return "", err
	}
	tree, err := git(ctx, r.Top, nil, "rev-parse", snap.Commit+"^{tree}")
	if err != nil {
		return "", fmt.Errorf("bundle the workspace: %w", err)
	}
	base, err := git(ctx, r.Top, nil, "commit-tree", strings.TrimSpace(tree), "-m", "baton workspace for a child: "+snap.Describe())
	if err != nil {
		return "", fmt.Errorf("bundle the workspace: %w", err)
	}
	base = strings.TrimSpace(base)
	if _, err := git(ctx, r.Top, nil, "update-ref", ref, base); err != nil {
		return "", fmt.Errorf("bundle the workspace: %w", err)
	}
	if _, err := git(ctx, r.Top, nil, "bundle", "create", "-q", file, ref); err != nil {
		return "", fmt.Errorf("bundle the workspace: %w", err)
	}
	return base, nil
}

// Forget drops a ref Bundle made.
func (r Repo) Forget(ctx context.Context, ref string) {
	_, _ = git(ctx, r.Top, nil, "update-ref", "-d", ref)
}

// ApplyBundle reads a result bundle (ResultRef, whose history starts at
// base) into the repository, checking every object it brings, and writes
// its change since base into the work tree's files, as if a child had
// written them here. git apply refuses paths outside the work tree and
// writes through no symbolic link, so a hostile bundle cannot reach past
// it.
func (r Repo) ApplyBundle(ctx context.Context, file, base string) error {
	if _, err := git(ctx, r.Top, nil, "-c", "fetch.fsckObjects=true", "-c", "transfer.fsckObjects=true",
		"fetch", "-q", "--no-tags", "--no-write-fetch-head", file, ResultRef+":"+ResultRef+"-"+short(base)); err != nil {
		return fmt.Errorf("read the child's result: %w", err)
	}
	ref := ResultRef + "-" + short(base)
	defer func() { _, _ = git(context.WithoutCancel(ctx), r.Top, nil, "update-ref", "-d", ref) }()
	if _, err := git(ctx, r.Top, nil, "merge-base", "--is-ancestor", base, ref); err != nil {
		return fmt.Errorf("the child's result does not start from its workspace: %w", err)
	}
	patch, err := gitBytes(ctx, r.Top, nil, nil, "diff", "--binary", "--no-renames", "--no-ext-diff", "--no-textconv", base, ref)
	if err != nil {
		return fmt.Errorf("read the child's result: %w", err)
	}
	if len(patch) == 0 {
		return nil
	}
	if _, err := gitBytes(ctx, r.Top, nil, patch, "apply", "--binary", "--whitespace=nowarn", "-"); err != nil {
		return fmt.Errorf("write the child's result: %w", err)
	}
	return nil
}
