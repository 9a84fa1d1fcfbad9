package worktree

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestMergeOfWhatThePersonAlreadyHas: a change the person's file already
// holds, alone or beside edits of their own, is Same: nothing to write.
// A deletion left unchosen leaves the file.
func TestMergeOfWhatThePersonAlreadyHas(t *testing.T) {
	ctx := context.Background()
	repo := newRepo(t, map[string]string{"f.txt": lines(30, nil), "gone.txt": "bye\n"})
	tree, _ := startTree(t, repo)
	child := lines(30, map[int]string{3: "child"})
	write(t, tree.Dir, "f.txt", child)
	if err := removeFile(filepath.Join(tree.Dir, "gone.txt")); err != nil {
		t.Fatal(err)
	}
	change, err := tree.Diff(ctx)
	if err != nil || len(change.Files) != 2 {
		t.Fatalf("%+v, %v", change, err)
	}
	edit, deletion := change.Files[0], change.Files[1]
	if m, err := tree.Merge(ctx, edit, all, []byte(child), true, Ask); err != nil || !m.Same {
		t.Errorf("the person has the child's file: %+v, %v", m, err)
	}
	more := lines(30, map[int]string{3: "child", 25: "mine"})
	if m, err := tree.Merge(ctx, edit, all, []byte(more), true, Ask); err != nil || !m.Same {
		t.Errorf("the person has the child's change and more: %+v, %v", m, err)
	}
	none := func(int) bool { return false }
	if m, err := tree.Merge(ctx, deletion, none, []byte("bye\n"), true, Ask); err != nil || m.Delete || !m.Same {
		t.Errorf("an unchosen deletion: %+v, %v", m, err)
	}
}

// TestTreeWithoutItsGitDirectoryRunsNoGit: a Tree not made by Add or
// Reopen has no git directory of its own, and refuses to run git rather
// than let git find one from the folder (which a child may point
// anywhere).
func TestTreeWithoutItsGitDirectoryRunsNoGit(t *testing.T) {
	tree, _ := startTree(t, newRepo(t, map[string]string{"a.txt": "one\n"}))
	bare := Tree{Repo: tree.Repo, Dir: tree.Dir, Base: tree.Base}
	if _, err := bare.Diff(context.Background()); err == nil || !strings.Contains(err.Error(), "no git directory of its own") {
		t.Errorf("Diff: %v", err)
	}
	if err := bare.Keep(context.Background(), "kept", "x"); err == nil {
		t.Error("Keep ran git without the worktree's git directory")
	}
}

// TestKeepRefusesABranchThatExists: keeping a change under the name of a
// branch the person has fails, and their branch stays where it was.
func TestKeepRefusesABranchThatExists(t *testing.T) {
	repo := newRepo(t, map[string]string{"a.txt": "one\n"})
	tree, _ := startTree(t, repo)
	before := run(t, repo, "rev-parse", "main")
	write(t, tree.Dir, "a.txt", "child\n")
	if err := tree.Keep(context.Background(), "main", "child"); err == nil || !strings.Contains(err.Error(), "keep worktree") {
		t.Errorf("Keep onto main: %v", err)
	}
	if after := run(t, repo, "rev-parse", "main"); after != before {
		t.Errorf("main moved from %s to %s", before, after)
	}
}

// TestBundleErrors: a result that changes nothing writes nothing; a
// result file that is not there, and a ref or bundle place git refuses,
// are errors that name what failed.
func TestBundleErrors(t *testing.T) {
	repo, bundle, ref, base := bundledRepo(t)
	pod := remoteChild(t, bundle, ref)
	a := read(t, repo.Top, "a.txt")
	runGit(t, pod, "", "commit", "-q", "--allow-empty", "-m", "nothing")
	if err := repo.ApplyBundle(context.Background(), resultBundle(t, pod, "HEAD", base), base); err != nil {
		t.Fatal(err)
	}
	if got := read(t, repo.Top, "a.txt"); got != a {
		t.Errorf("an empty result changed a.txt to %q", got)
	}
	if err := repo.ApplyBundle(context.Background(), filepath.Join(t.TempDir(), "missing.bundle"), base); err == nil || !strings.Contains(err.Error(), "read the child's result") {
		t.Errorf("a missing result: %v", err)
	}
	if _, err := repo.Bundle(context.Background(), t.TempDir(), filepath.Join(t.TempDir(), "ws.bundle"), "refs/baton/bad..name"); err == nil || !strings.Contains(err.Error(), "bundle the workspace") {
		t.Errorf("a bad ref: %v", err)
	}
	if _, err := repo.Bundle(context.Background(), t.TempDir(), filepath.Join(t.TempDir(), "no", "such", "ws.bundle"), "refs/baton/x"); err == nil || !strings.Contains(err.Error(), "bundle the workspace") {
		t.Errorf("a bundle in a missing folder: %v", err)
	}
}
