package worktree

import (
	"context"
	"strings"
	"testing"
)

// all chooses every hunk.
func all(int) bool { return true }

// TestDiffAndApplyEveryHunk: the hunks parsed from git's diff, applied
// to the snapshot, give exactly the child's file, for edits, additions,
// deletions and a last line without a newline.
func TestDiffAndApplyEveryHunk(t *testing.T) {
	ctx := context.Background()
	repo := newRepo(t, map[string]string{"f.txt": lines(40, nil), "gone.txt": "bye\n", "tail.txt": "a\nb"})
	tree, _ := startTree(t, repo)
	child := lines(40, map[int]string{2: "two!", 30: "thirty!"})
	write(t, tree.Dir, "f.txt", child)
	write(t, tree.Dir, "new/n.txt", "fresh\n")
	write(t, tree.Dir, "tail.txt", "a\nB")
	if err := removeFile(tree.Dir + "/gone.txt"); err != nil {
		t.Fatal(err)
	}
	change, err := tree.Diff(ctx)
	if err != nil {
		t.Fatal(err)
	}
	added, removed, files := change.Counts()
	if files != 4 || added != 4 || removed != 4 {
		t.Fatalf("counts +%d -%d in %d: %+v", added, removed, files, change.Files)
	}
	for _, f := range change.Files {
		want := read(t, tree.Dir, f.Path)
		m, err := tree.Merge(ctx, f, all, []byte(read(t, repo, f.Path)), exists(repo+"/"+f.Path), Ask)
		if err != nil {
			t.Fatal(err)
		}
		if f.Status == Deleted {
			if !m.Delete {
				t.Errorf("%s: %+v, want a deletion", f.Path, m)
			}
			continue
		}
		if string(m.Data) != want {
			t.Errorf("%s: merged %q, want %q", f.Path, m.Data, want)
		}
	}
	if f := change.Files[0]; f.Path != "f.txt" || len(f.Hunks) != 2 {
		t.Fatalf("f.txt hunks: %+v", f)
	}
}

// TestApplyOneHunk leaves the unchosen hunk out.
func TestApplyOneHunk(t *testing.T) {
	ctx := context.Background()
	repo := newRepo(t, map[string]string{"f.txt": lines(40, nil)})
	tree, _ := startTree(t, repo)
	write(t, tree.Dir, "f.txt", lines(40, map[int]string{2: "two!", 30: "thirty!"}))
	change, err := tree.Diff(ctx)
	if err != nil {
		t.Fatal(err)
	}
	second := func(i int) bool { return i == 1 }
	m, err := tree.Merge(ctx, change.Files[0], second, []byte(lines(40, nil)), true, Ask)
	if err != nil {
		t.Fatal(err)
	}
	if want := lines(40, map[int]string{30: "thirty!"}); string(m.Data) != want {
		t.Fatalf("merged:\n%s", m.Data)
	}
}

// TestConflictResolvedEachWay: the person and the child changed the same
// line; Ask shows both sides and writes nothing, Mine, Child and Markers
// settle it as named, and a change elsewhere merges cleanly.
func TestConflictResolvedEachWay(t *testing.T) {
	ctx := context.Background()
	repo := newRepo(t, map[string]string{"f.txt": lines(40, nil)})
	tree, _ := startTree(t, repo)
	write(t, tree.Dir, "f.txt", lines(40, map[int]string{5: "child five", 35: "child 35"}))
	change, err := tree.Diff(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ours := []byte(lines(40, map[int]string{5: "my five"}))
	f := change.Files[0]

	m, err := tree.Merge(ctx, f, all, ours, true, Ask)
	if err != nil || len(m.Conflicts) != 1 || m.Data != nil {
		t.Fatalf("ask: %+v %v", m, err)
	}
	if c := m.Conflicts[0]; c.Mine != "my five\n" || c.Child != "child five\n" {
		t.Fatalf("conflict sides %+v", c)
	}
	for res, want := range map[Resolution]string{
		Mine:  lines(40, map[int]string{5: "my five", 35: "child 35"}),
		Child: lines(40, map[int]string{5: "child five", 35: "child 35"}),
	} {
		m, err := tree.Merge(ctx, f, all, ours, true, res)
		if err != nil || string(m.Data) != want {
			t.Errorf("%s: %v\n%s", res, err, m.Data)
		}
	}
	m, err = tree.Merge(ctx, f, all, ours, true, Markers)
	if err != nil || m.Marked != 1 || !strings.Contains(string(m.Data), "<<<<<<< mine\nmy five\n=======\nchild five\n>>>>>>> child\n") {
		t.Fatalf("markers: %v %d\n%s", err, m.Marked, m.Data)
	}
	clean := func(i int) bool { return i == 1 }
	m, err = tree.Merge(ctx, f, clean, ours, true, Ask)
	if err != nil || string(m.Data) != lines(40, map[int]string{5: "my five", 35: "child 35"}) {
		t.Fatalf("clean hunk: %v %+v", err, m)
	}
}

// TestDeletionOfChangedFileConflicts: the child deleted a file the person
// changed since; Ask refuses to delete it.
func TestDeletionOfChangedFileConflicts(t *testing.T) {
	ctx := context.Background()
	repo := newRepo(t, map[string]string{"f.txt": "one\n"})
	tree, _ := startTree(t, repo)
	if err := removeFile(tree.Dir + "/f.txt"); err != nil {
		t.Fatal(err)
	}
	change, err := tree.Diff(ctx)
	if err != nil {
		t.Fatal(err)
	}
	m, err := tree.Merge(ctx, change.Files[0], all, []byte("mine\n"), true, Ask)
	if err != nil || len(m.Conflicts) != 1 || m.Delete || m.Conflicts[0].Child != "(file deleted)" {
		t.Fatalf("%+v %v", m, err)
	}
	m, _ = tree.Merge(ctx, change.Files[0], all, []byte("mine\n"), true, Child)
	if !m.Delete {
		t.Fatalf("child's side: %+v", m)
	}
}
