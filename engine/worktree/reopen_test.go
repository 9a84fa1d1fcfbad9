package worktree

import (
	"context"
	"path/filepath"
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
