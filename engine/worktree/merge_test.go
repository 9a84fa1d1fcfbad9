package worktree

import (
	"context"
	"os"
	"path/filepath"
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

// binary is a file body git reads as binary.
func binary(tag string) string { return "\x00\x01" + tag + "\x00" }

// TestMergeSettlesEachKindOfChange: one child's change holds each kind
// of file a review meets (read from one worktree, to keep the test
// fast), and each merges as the person would want it to.
func TestMergeSettlesEachKindOfChange(t *testing.T) {
	ctx := context.Background()
	blank := "a\n\nb\nc\n\nd\n"
	repo := newRepo(t, map[string]string{
		"img.bin": binary("old"), "edit.txt": lines(30, nil), "gone.txt": "bye\n", "theirs.txt": lines(10, nil), "blank.txt": blank,
	})
	// With diff.suppressBlankEmpty set (a person's setting, or one a
	// repository's config holds), git writes an empty context line as
	// an empty line.
	run(t, repo, "config", "diff.suppressBlankEmpty", "true")
	tree, _ := startTree(t, repo)
	write(t, tree.Dir, "img.bin", binary("child"))
	write(t, tree.Dir, "edit.txt", lines(30, map[int]string{3: "child"}))
	write(t, tree.Dir, "theirs.txt", lines(10, map[int]string{3: "child"}))
	write(t, tree.Dir, "blank.txt", "a\n\nB\nc\n\nd\n")
	if err := removeFile(filepath.Join(tree.Dir, "gone.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(tree.Dir, "link")); err != nil {
		t.Fatal(err)
	}
	change, err := tree.Diff(ctx)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]File{}
	for _, f := range change.Files {
		files[f.Path] = f
	}
	if len(files) != 6 {
		t.Fatalf("files %+v", change.Files)
	}

	// A binary file has no lines to merge; it applies whole while the
	// person's file is the snapshot's, and otherwise each resolution
	// settles it whole: Ask shows both sides by size, Mine keeps the
	// person's, Child takes the child's.
	t.Run("binary", func(t *testing.T) {
		f := files["img.bin"]
		if !f.Binary {
			t.Fatalf("img.bin read as text: %+v", f)
		}
		if m, err := tree.Merge(ctx, f, all, []byte(binary("old")), true, Ask); err != nil || string(m.Data) != binary("child") {
			t.Errorf("unchanged person's file: %+v, %v", m, err)
		}
		if m, err := tree.Merge(ctx, f, all, []byte(binary("child")), true, Ask); err != nil || !m.Same {
			t.Errorf("the person already has the child's file: %+v, %v", m, err)
		}
		mine := []byte(binary("mine!"))
		m, err := tree.Merge(ctx, f, all, mine, true, Ask)
		if err != nil || len(m.Conflicts) != 1 || m.Conflicts[0].Mine != "(binary, 8 bytes)" || m.Conflicts[0].Child != "(binary, 8 bytes)" {
			t.Errorf("both changed, Ask: %+v, %v", m, err)
		}
		for _, res := range []Resolution{Mine, Markers} {
			if m, err := tree.Merge(ctx, f, all, mine, true, res); err != nil || !m.Same {
				t.Errorf("both changed, %s: %+v, %v", res, m, err)
			}
		}
		if m, err := tree.Merge(ctx, f, all, mine, true, Child); err != nil || string(m.Data) != binary("child") {
			t.Errorf("both changed, Child: %+v, %v", m, err)
		}
	})

	// A change to a file the person deleted is a conflict showing the
	// deletion, which Child settles by bringing the file back.
	t.Run("deleted by the person", func(t *testing.T) {
		f := files["theirs.txt"]
		m, err := tree.Merge(ctx, f, all, nil, false, Ask)
		if err != nil || len(m.Conflicts) != 1 || m.Conflicts[0].Mine != "(file deleted)" || !strings.Contains(m.Conflicts[0].Child, "child") {
			t.Errorf("Ask: %+v, %v", m, err)
		}
		if m, err := tree.Merge(ctx, f, all, nil, false, Child); err != nil || string(m.Data) != lines(10, map[int]string{3: "child"}) {
			t.Errorf("Child: %+v, %v", m, err)
		}
	})

	// A change the person's file already holds, alone or beside edits
	// of their own, is Same: nothing to write. A deletion left unchosen
	// leaves the file.
	t.Run("what the person has", func(t *testing.T) {
		child := lines(30, map[int]string{3: "child"})
		if m, err := tree.Merge(ctx, files["edit.txt"], all, []byte(child), true, Ask); err != nil || !m.Same {
			t.Errorf("the person has the child's file: %+v, %v", m, err)
		}
		more := lines(30, map[int]string{3: "child", 25: "mine"})
		if m, err := tree.Merge(ctx, files["edit.txt"], all, []byte(more), true, Ask); err != nil || !m.Same {
			t.Errorf("the person has the child's change and more: %+v, %v", m, err)
		}
		none := func(int) bool { return false }
		if m, err := tree.Merge(ctx, files["gone.txt"], none, []byte("bye\n"), true, Ask); err != nil || m.Delete || !m.Same {
			t.Errorf("an unchosen deletion: %+v, %v", m, err)
		}
	})

	// A link the child made is named, with where it is, and not written.
	t.Run("symlink", func(t *testing.T) {
		f := files["link"]
		if !f.Symlink() {
			t.Fatalf("link: %+v", f)
		}
		if m, err := tree.Merge(ctx, f, all, nil, false, Child); err == nil || !strings.Contains(err.Error(), "symbolic links are not applied") {
			t.Errorf("Merge of a link: %+v, %v", m, err)
		}
	})

	// Under diff.suppressBlankEmpty the review reads an empty line as the
	// empty context line it is, and the merge gives the child's file,
	// instead of baton crashing on the line.
	t.Run("blank context lines", func(t *testing.T) {
		m, err := tree.Merge(ctx, files["blank.txt"], all, []byte(blank), true, Ask)
		if want := "a\n\nB\nc\n\nd\n"; err != nil || string(m.Data) != want {
			t.Errorf("merged %q, %v; want %q", m.Data, err, want)
		}
	})

	// A change whose hunks no longer match the snapshot's lines (a
	// review state edited by hand, a worktree whose base moved) is an
	// error, never a patch applied at the wrong place.
	t.Run("hunks that do not fit", func(t *testing.T) {
		f := files["edit.txt"]
		moved := f
		moved.Hunks = append([]Hunk(nil), f.Hunks...)
		moved.Hunks[0].OldStart = 40
		if _, err := tree.Merge(ctx, moved, all, []byte(lines(30, nil)), true, Ask); err == nil || !strings.Contains(err.Error(), "does not fit the snapshot") {
			t.Errorf("a hunk past the end: %v", err)
		}
		shifted := f
		shifted.Hunks = append([]Hunk(nil), f.Hunks...)
		shifted.Hunks[0].OldStart++
		if _, err := tree.Merge(ctx, shifted, all, []byte(lines(30, nil)), true, Ask); err == nil || !strings.Contains(err.Error(), "does not match the snapshot") {
			t.Errorf("a hunk one line off: %v", err)
		}
	})

	// A change whose snapshot or new content the repository does not
	// hold is an error naming the object.
	t.Run("missing objects", func(t *testing.T) {
		missing := strings.Repeat("1", 40)
		for _, f := range []File{files["edit.txt"], files["img.bin"]} {
			old, nu := f, f
			old.OldBlob, nu.NewBlob = missing, missing
			if _, err := tree.Merge(ctx, old, all, nil, true, Ask); err == nil || !strings.Contains(err.Error(), "read 1111111") {
				t.Errorf("%s with a missing snapshot: %v", f.Path, err)
			}
			if f.Binary {
				if _, err := tree.Merge(ctx, nu, all, nil, true, Ask); err == nil || !strings.Contains(err.Error(), "read 1111111") {
					t.Errorf("%s with missing new content: %v", f.Path, err)
				}
			}
		}
	})

	// A Tree not made by Add or Reopen has no git directory of its own,
	// and refuses to run git rather than let git find one from the
	// folder (which a child may point anywhere).
	t.Run("no git directory", func(t *testing.T) {
		bare := Tree{Repo: tree.Repo, Dir: tree.Dir, Base: tree.Base}
		if _, err := bare.Diff(ctx); err == nil || !strings.Contains(err.Error(), "no git directory of its own") {
			t.Errorf("Diff: %v", err)
		}
		if err := bare.Keep(ctx, "kept", "x"); err == nil {
			t.Error("Keep ran git without the worktree's git directory")
		}
	})

	// Keeping a change under the name of a branch the person has fails,
	// and their branch stays where it was.
	t.Run("keep onto an existing branch", func(t *testing.T) {
		before := run(t, repo, "rev-parse", "main")
		if err := tree.Keep(ctx, "main", "child"); err == nil || !strings.Contains(err.Error(), "keep worktree") {
			t.Errorf("Keep onto main: %v", err)
		}
		if after := run(t, repo, "rev-parse", "main"); after != before {
			t.Errorf("main moved from %s to %s", before, after)
		}
	})
}

// TestHunkLongerThanTheSnapshotIsAnError: a hunk whose lines run past
// the snapshot's end is refused with an error, never an index out of
// range.
func TestHunkLongerThanTheSnapshotIsAnError(t *testing.T) {
	h := Hunk{OldStart: 2, OldLines: 1, Header: "@@ -2 +2 @@", Lines: []Line{{Kind: ' ', Text: "b"}, {Kind: ' ', Text: "c"}}}
	if _, err := applyHunks([]byte("a\nb\n"), []Hunk{h}, all); err == nil || !strings.Contains(err.Error(), "does not match the snapshot") {
		t.Errorf("applyHunks: %v", err)
	}
}
