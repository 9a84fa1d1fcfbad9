package worktree

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSnapshotCarriesUncommittedWork: staged, unstaged and untracked
// changes are in the worktree; ignored files are not; the person's
// status, index and stash list are exactly as before.
func TestSnapshotCarriesUncommittedWork(t *testing.T) {
	repo := newRepo(t, map[string]string{"a.txt": "one\n", "b.txt": "two\n", ".gitignore": "*.log\n"})
	write(t, repo, "a.txt", "one changed\n")
	write(t, repo, "b.txt", "two staged\n")
	run(t, repo, "add", "b.txt")
	write(t, repo, "new.txt", "untracked\n")
	write(t, repo, "debug.log", "ignored\n")
	status, stash := run(t, repo, "status", "--porcelain"), run(t, repo, "stash", "list")
	staged := run(t, repo, "diff", "--cached", "--name-only")

	tree, snap := startTree(t, repo)
	if !snap.Dirty || snap.Branch != "main" || !strings.HasPrefix(snap.Describe(), "main@") || !strings.HasSuffix(snap.Describe(), "+ uncommitted changes") {
		t.Fatalf("snapshot = %+v (%s)", snap, snap.Describe())
	}
	for name, want := range map[string]string{"a.txt": "one changed\n", "b.txt": "two staged\n", "new.txt": "untracked\n", "debug.log": ""} {
		if got := read(t, tree.Dir, name); got != want {
			t.Errorf("worktree %s = %q, want %q", name, got, want)
		}
	}
	if got := run(t, repo, "status", "--porcelain"); got != status {
		t.Errorf("status changed:\n%s\nwas\n%s", got, status)
	}
	if got := run(t, repo, "diff", "--cached", "--name-only"); got != staged {
		t.Errorf("index changed: %q, was %q", got, staged)
	}
	if got := run(t, repo, "stash", "list"); got != stash {
		t.Errorf("stash list changed: %q", got)
	}
	if strings.HasPrefix(tree.Dir, repo) {
		t.Errorf("worktree %s is inside the repository", tree.Dir)
	}
}

// TestCleanSnapshotIsHead: nothing uncommitted means HEAD itself.
func TestCleanSnapshotIsHead(t *testing.T) {
	repo := newRepo(t, map[string]string{"a.txt": "one\n"})
	_, snap := startTree(t, repo)
	head := strings.TrimSpace(run(t, repo, "rev-parse", "HEAD"))
	if snap.Dirty || snap.Commit != head {
		t.Fatalf("snapshot %+v, head %s", snap, head)
	}
}

// TestOpenOutsideRepository is refused with ErrNotRepository.
func TestOpenOutsideRepository(t *testing.T) {
	_, err := Open(context.Background(), t.TempDir())
	if !errors.Is(err, ErrNotRepository) {
		t.Fatalf("err = %v", err)
	}
}

// TestHooksNeverRun: a post-checkout hook in the repository does not run
// when baton adds a worktree.
func TestHooksNeverRun(t *testing.T) {
	repo := newRepo(t, map[string]string{"a.txt": "one\n"})
	marker := t.TempDir() + "/ran"
	write(t, repo, ".git/hooks/post-checkout", "#!/bin/sh\ntouch "+marker+"\n")
	run(t, repo, "update-index", "--refresh")
	if err := chmodX(repo + "/.git/hooks/post-checkout"); err != nil {
		t.Fatal(err)
	}
	startTree(t, repo)
	if read(t, "/", marker) != "" || exists(marker) {
		t.Fatal("the repository's post-checkout hook ran")
	}
}

// TestRecordListedUntilRemoved: a worktree whose session crashed stays
// listed with its record; once its folder is gone the record goes too.
func TestRecordListedUntilRemoved(t *testing.T) {
	repo := newRepo(t, map[string]string{"a.txt": "one\n"})
	tree, snap := startTree(t, repo)
	root := filepathDir(tree.Dir, 3)
	rec := Record{Dir: tree.Dir, Repo: tree.Repo.Top, Base: snap.Commit, Session: "s1", Agent: "child-1", State: StateRunning}
	if err := rec.Save(); err != nil {
		t.Fatal(err)
	}
	write(t, tree.Dir, "a.txt", "changed by a child that crashed\n")
	list, err := List(root)
	if err != nil || len(list) != 1 || list[0].Agent != "child-1" || list[0].State != StateRunning {
		t.Fatalf("list %+v %v", list, err)
	}
	if err := tree.Remove(context.Background()); err != nil {
		t.Fatal(err)
	}
	if list, _ := List(root); len(list) != 0 || exists(tree.Dir+".json") {
		t.Fatalf("record of a removed worktree kept: %+v", list)
	}
}

// TestSnapshotWithoutAnIndex: a repository with no index file (a clone
// made with --no-checkout, an index deleted) snapshots HEAD plus the
// work tree, and the person is still left without an index; an unborn
// branch snapshots its files; a detached HEAD is described by commit.
func TestSnapshotWithoutAnIndex(t *testing.T) {
	repo := newRepo(t, map[string]string{"a.txt": "one\n"})
	if err := os.Remove(filepath.Join(repo, ".git", "index")); err != nil {
		t.Fatal(err)
	}
	write(t, repo, "b.txt", "two\n")
	tree, snap := startTree(t, repo)
	if read(t, tree.Dir, "a.txt") != "one\n" || read(t, tree.Dir, "b.txt") != "two\n" || !snap.Dirty {
		t.Errorf("snapshot %+v: a.txt %q b.txt %q", snap, read(t, tree.Dir, "a.txt"), read(t, tree.Dir, "b.txt"))
	}
	if exists(filepath.Join(repo, ".git", "index")) {
		t.Error("the snapshot left the person an index")
	}

	take := func(dir string) Snapshot {
		t.Helper()
		r, err := Open(context.Background(), dir)
		if err != nil {
			t.Fatal(err)
		}
		snap, err := r.Take(context.Background(), t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		return snap
	}
	unborn := t.TempDir()
	run(t, unborn, "init", "-q", "-b", "main")
	write(t, unborn, "c.txt", "three\n")
	if snap := take(unborn); snap.Head != "" || snap.Commit == "" || snap.Describe() != "an unborn branch + uncommitted changes" {
		t.Errorf("unborn: %+v (%s)", snap, snap.Describe())
	}
	run(t, repo, "update-ref", "--no-deref", "HEAD", "HEAD") // a detached HEAD
	if snap, head := take(repo), strings.TrimSpace(run(t, repo, "rev-parse", "--short=7", "HEAD")); !strings.HasPrefix(snap.Describe(), head+" ") {
		t.Errorf("detached: %q, want %q first", snap.Describe(), head)
	}
}
