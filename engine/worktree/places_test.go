package worktree

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestLocationKeepsNamesToOneFolder: a session or child name from a
// model or a repository ("../..", "/etc", "x/../../y") stays one folder
// under the state root, never a way out of it.
func TestLocationKeepsNamesToOneFolder(t *testing.T) {
	root := "/state/worktrees"
	for _, name := range []string{"..", ".", "../../etc", "/etc/passwd", "a/../../b", "ça", "", "..."} {
		dir := Location(root, "/home/u/app", name, name)
		rel, err := filepath.Rel(root, dir)
		if err != nil || strings.HasPrefix(rel, "..") || len(strings.Split(rel, string(filepath.Separator))) != 3 {
			t.Errorf("Location(%q) = %s, not three folders under %s", name, dir, root)
		}
	}
	if a, b := Location(root, "/a/app", "s", "c"), Location(root, "/b/app", "s", "c"); a == b {
		t.Errorf("two repositories named app share %s", a)
	}
}

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

// TestReopenRefusesAnotherRepositorysRecord: a record is reopened only
// by the repository it names, and only while git still knows its
// worktree.
func TestReopenRefusesAnotherRepositorysRecord(t *testing.T) {
	ctx := context.Background()
	repo := newRepo(t, map[string]string{"a.txt": "one\n"})
	tree, snap := startTree(t, repo)
	startTree(t, repo) // another worktree, so git's list of them stays
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
	if err := tree.Remove(ctx); err != nil {
		t.Fatal(err)
	}
	// A stray entry in git's list of worktrees is passed over.
	if err := os.MkdirAll(filepath.Join(repo, ".git", "worktrees", "stray"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := tree.Repo.Reopen(ctx, rec); err == nil || !strings.Contains(err.Error(), "git no longer knows it") {
		t.Errorf("reopened a removed worktree: %v", err)
	}
}

// TestListSkipsRecordsThatDoNotDescribeTheirPlace: a record that does
// not parse, cannot be read, or names another folder than the one it
// sits beside (a planted record pointing at the person's files), is not
// listed; the rest are, oldest first, even under a state folder whose
// name a glob would read as a pattern.
func TestListSkipsRecordsThatDoNotDescribeTheirPlace(t *testing.T) {
	root := filepath.Join(t.TempDir(), "home[1]*")
	older, newer := filepath.Join(root, "p", "s", "older"), filepath.Join(root, "p", "s", "newer")
	for _, dir := range []string{older, newer} {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Now()
	if err := (Record{Dir: newer, Agent: "newer", Created: now}).Save(); err != nil {
		t.Fatal(err)
	}
	if err := (Record{Dir: older, Agent: "older", Created: now.Add(-time.Hour)}).Save(); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(root, "p", "s"), "garbled.json", "{not json")
	write(t, filepath.Join(root, "p", "s"), "forged.json", `{"dir":"/home/u/app","agent":"forged"}`)
	if err := os.Mkdir(filepath.Join(root, "p", "s", "folder.json"), 0o700); err != nil {
		t.Fatal(err)
	}
	list, err := List(root)
	if err != nil || len(list) != 2 || list[0].Agent != "older" || list[1].Agent != "newer" {
		t.Fatalf("List = %+v, %v", list, err)
	}
	if err := (Record{Dir: filepath.Join(root, "no", "such", "folder")}).Save(); err == nil {
		t.Error("a record saved into a folder that does not exist")
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
