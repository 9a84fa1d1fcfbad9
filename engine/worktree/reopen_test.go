package worktree

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReopenIgnoresARedirectedGitFile is the attack of a child that
// points its worktree's `.git` at the person's repository before the
// session ends: the worktree reopened from its record after a resume
// still uses the git directory git keeps for it, so reading the change
// again stages nothing into the person's index.
func TestReopenIgnoresARedirectedGitFile(t *testing.T) {
	ctx := context.Background()
	person := newRepo(t, map[string]string{"a.txt": "one\n"})
	index := run(t, person, "ls-files", "--stage")
	tree, _ := startTree(t, person)
	write(t, tree.Dir, "a.txt", "one, changed by the child\n")
	write(t, tree.Dir, ".git", "gitdir: "+filepath.Join(person, ".git")+"\n")
	rec := Record{Dir: tree.Dir, Repo: tree.Repo.Top, Base: tree.Base, Session: "s1", Agent: "child-1", State: StateKept}

	again, err := tree.Repo.Reopen(ctx, rec)
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	if again.gitDir != tree.gitDir {
		t.Fatalf("reopened with git directory %s, want %s", again.gitDir, tree.gitDir)
	}
	change, err := again.Diff(ctx)
	if err != nil || len(change.Files) != 1 || change.Files[0].Path != "a.txt" {
		t.Fatalf("change %+v, %v", change, err)
	}
	if got := run(t, person, "ls-files", "--stage"); got != index {
		t.Errorf("the person's index changed:\n%s\nwas\n%s", got, index)
	}
	// A record naming a folder git does not know as a worktree of the
	// repository is refused.
	forged := rec
	forged.Dir = person
	if _, err := tree.Repo.Reopen(ctx, forged); err == nil {
		t.Error("a record naming the person's own folder was reopened")
	}
}

// TestReopenRefusesAnotherRepositorysRecord: a record is reopened only
// by the repository it names, and only while git still knows its
// worktree.
func TestReopenRefusesAnotherRepositorysRecord(t *testing.T) {
	ctx := context.Background()
	repo := newRepo(t, map[string]string{"a.txt": "one\n"})
	tree, snap := startTree(t, repo)
	rec := Record{Dir: tree.Dir, Repo: tree.Repo.Top, Base: snap.Commit}
	fresh := t.TempDir()
	run(t, fresh, "init", "-q")
	other, err := Open(ctx, fresh)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.Reopen(ctx, rec); err == nil || !strings.Contains(err.Error(), "belongs to") {
		t.Errorf("reopened by another repository: %v", err)
	}
	if _, err := other.Reopen(ctx, Record{Dir: tree.Dir, Repo: other.Top}); err == nil {
		t.Error("a repository without worktrees reopened one")
	}
	// A stray entry in git's list of worktrees is passed over (and keeps
	// the list there once the worktree is removed).
	if err := os.MkdirAll(filepath.Join(repo, ".git", "worktrees", "stray"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := tree.Remove(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := tree.Repo.Reopen(ctx, rec); err == nil || !strings.Contains(err.Error(), "git no longer knows it") {
		t.Errorf("reopened a removed worktree: %v", err)
	}
}
