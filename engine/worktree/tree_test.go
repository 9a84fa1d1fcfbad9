package worktree

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAddRefusesAnExistingFolder: a worktree never lands on a folder
// that is already there (another child's, or one a repository planted),
// nor on a commit the repository lacks; a snapshot needs a folder for
// its private index.
func TestAddRefusesAnExistingFolder(t *testing.T) {
	ctx := context.Background()
	repo := newRepo(t, map[string]string{"a.txt": "one\n"})
	r, err := Open(ctx, repo)
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	snap, err := r.Take(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	taken := filepath.Join(root, "taken")
	write(t, taken, "keep.txt", "mine\n")
	if _, err := r.Add(ctx, taken, snap); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("Add over an existing folder: %v", err)
	}
	if read(t, taken, "keep.txt") != "mine\n" {
		t.Error("the existing folder's file changed")
	}
	if _, err := r.Add(ctx, filepath.Join(root, "bad"), Snapshot{Commit: strings.Repeat("f", 40)}); err == nil || !strings.Contains(err.Error(), "add worktree") {
		t.Errorf("Add of a commit that does not exist: %v", err)
	}
	if exists(filepath.Join(root, "bad")) {
		t.Error("a failed Add left its folder")
	}
	// A clean detached HEAD is described by its commit alone.
	run(t, repo, "update-ref", "--no-deref", "HEAD", "HEAD")
	if snap, err := r.Take(ctx, root); err != nil || snap.Dirty || snap.Describe() != strings.TrimSpace(run(t, repo, "rev-parse", "--short=7", "HEAD")) {
		t.Errorf("a clean detached HEAD: %+v (%s), %v", snap, snap.Describe(), err)
	}
	// A scratch place that cannot hold the private index is an error.
	if _, err := r.Take(ctx, filepath.Join(taken, "keep.txt", "scratch")); err == nil || !strings.Contains(err.Error(), "snapshot") {
		t.Errorf("Take with a scratch under a file: %v", err)
	}
}

// TestPruneForgetsOnlyBatonsGoneWorktrees: git's records of baton's
// worktrees whose folders are gone are removed; a worktree of the
// person's elsewhere, even one whose folder is gone (an unmounted
// disk), is kept.
func TestPruneForgetsOnlyBatonsGoneWorktrees(t *testing.T) {
	ctx := context.Background()
	repo := newRepo(t, map[string]string{"a.txt": "one\n"})
	mine := filepath.Join(t.TempDir(), "mine")
	run(t, repo, "worktree", "add", "-q", "--detach", mine)
	tree, _ := startTree(t, repo)
	root := filepathDir(tree.Dir, 3)
	for _, dir := range []string{mine, tree.Dir} {
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
	}
	if err := PruneAdmin(ctx, repo, filepath.Join(root, "never-made")); err != nil {
		t.Fatal(err)
	}
	if list := run(t, repo, "worktree", "list", "--porcelain"); !strings.Contains(list, mine) || !strings.Contains(list, tree.Dir) {
		t.Errorf("pruning under a folder never made forgot a worktree:\n%s", list)
	}
	if err := PruneAdmin(ctx, repo, root); err != nil {
		t.Fatal(err)
	}
	list := run(t, repo, "worktree", "list", "--porcelain")
	if !strings.Contains(list, mine) || strings.Contains(list, tree.Dir) {
		t.Errorf("after prune:\n%s\nwant %s kept and %s gone", list, mine, tree.Dir)
	}
	if err := PruneAdmin(ctx, t.TempDir(), root); err == nil {
		t.Error("PruneAdmin outside a repository succeeded")
	}
	if err := PruneAdmin(ctx, newRepo(t, map[string]string{"a.txt": "one\n"}), filepath.Join(root, "none")); err != nil {
		t.Errorf("PruneAdmin of a repository without worktrees: %v", err)
	}
}

// TestWorkspaceInASubfolder: a person working in a folder of the
// repository gets a child whose workspace is the same folder of its
// worktree.
func TestWorkspaceInASubfolder(t *testing.T) {
	repo := newRepo(t, map[string]string{"svc/api/main.go": "package main\n", "README": "r\n"})
	tree, _ := startTree(t, filepath.Join(repo, "svc", "api"))
	if tree.Repo.Sub != filepath.Join("svc", "api") || tree.Workspace() != filepath.Join(tree.Dir, "svc", "api") {
		t.Fatalf("repo %+v, workspace %s", tree.Repo, tree.Workspace())
	}
	if read(t, tree.Workspace(), "main.go") != "package main\n" {
		t.Error("the child's workspace does not hold the person's folder")
	}
}
