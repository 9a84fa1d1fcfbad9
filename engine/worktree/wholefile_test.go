package worktree

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// binary is a file body git reads as binary.
func binary(tag string) string { return "\x00\x01" + tag + "\x00" }

// TestBinaryChangeAppliesWhole: a binary file has no lines to merge; it
// applies whole while the person's file is the snapshot's, and otherwise
// each resolution settles it whole: Ask shows both sides by size, Mine
// keeps the person's, Child takes the child's.
func TestBinaryChangeAppliesWhole(t *testing.T) {
	ctx := context.Background()
	repo := newRepo(t, map[string]string{"img.bin": binary("old")})
	tree, _ := startTree(t, repo)
	write(t, tree.Dir, "img.bin", binary("child"))
	change, err := tree.Diff(ctx)
	if err != nil {
		t.Fatal(err)
	}
	f := change.Files[0]
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
	if m, err := tree.Merge(ctx, f, all, mine, true, Mine); err != nil || !m.Same {
		t.Errorf("both changed, Mine: %+v, %v", m, err)
	}
	if m, err := tree.Merge(ctx, f, all, mine, true, Markers); err != nil || !m.Same {
		t.Errorf("both changed, Markers: %+v, %v", m, err)
	}
	if m, err := tree.Merge(ctx, f, all, mine, true, Child); err != nil || string(m.Data) != binary("child") {
		t.Errorf("both changed, Child: %+v, %v", m, err)
	}
}

// TestChangeToAFileThePersonDeleted is a conflict showing the deletion,
// which Child settles by bringing the file back.
func TestChangeToAFileThePersonDeleted(t *testing.T) {
	ctx := context.Background()
	repo := newRepo(t, map[string]string{"f.txt": lines(10, nil)})
	tree, _ := startTree(t, repo)
	write(t, tree.Dir, "f.txt", lines(10, map[int]string{3: "child"}))
	change, err := tree.Diff(ctx)
	if err != nil {
		t.Fatal(err)
	}
	m, err := tree.Merge(ctx, change.Files[0], all, nil, false, Ask)
	if err != nil || len(m.Conflicts) != 1 || m.Conflicts[0].Mine != "(file deleted)" || !strings.Contains(m.Conflicts[0].Child, "child") {
		t.Errorf("Ask: %+v, %v", m, err)
	}
	if m, err := tree.Merge(ctx, change.Files[0], all, nil, false, Child); err != nil || string(m.Data) != lines(10, map[int]string{3: "child"}) {
		t.Errorf("Child: %+v, %v", m, err)
	}
}

// TestSymlinkIsNeverApplied: a link the child made is named, with where
// it is, and not written.
func TestSymlinkIsNeverApplied(t *testing.T) {
	ctx := context.Background()
	repo := newRepo(t, map[string]string{"f.txt": "x\n"})
	tree, _ := startTree(t, repo)
	if err := os.Symlink("/etc/passwd", filepath.Join(tree.Dir, "link")); err != nil {
		t.Fatal(err)
	}
	change, err := tree.Diff(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(change.Files) != 1 || !change.Files[0].Symlink() {
		t.Fatalf("files %+v", change.Files)
	}
	if m, err := tree.Merge(ctx, change.Files[0], all, nil, false, Child); err == nil || !strings.Contains(err.Error(), "symbolic links are not applied") {
		t.Errorf("Merge of a link: %+v, %v", m, err)
	}
}

// TestHunksThatDoNotFitTheSnapshotAreRefused: a change whose hunks no
// longer match the snapshot's lines (a review state edited by hand, a
// worktree whose base moved) is an error, never a patch applied at the
// wrong place.
func TestHunksThatDoNotFitTheSnapshotAreRefused(t *testing.T) {
	ctx := context.Background()
	repo := newRepo(t, map[string]string{"f.txt": lines(20, nil)})
	tree, _ := startTree(t, repo)
	write(t, tree.Dir, "f.txt", lines(20, map[int]string{5: "child"}))
	change, err := tree.Diff(ctx)
	if err != nil {
		t.Fatal(err)
	}
	f := change.Files[0]
	moved := f
	moved.Hunks = append([]Hunk(nil), f.Hunks...)
	moved.Hunks[0].OldStart = 40
	if _, err := tree.Merge(ctx, moved, all, []byte(lines(20, nil)), true, Ask); err == nil || !strings.Contains(err.Error(), "does not fit the snapshot") {
		t.Errorf("a hunk past the end: %v", err)
	}
	shifted := f
	shifted.Hunks = append([]Hunk(nil), f.Hunks...)
	shifted.Hunks[0].OldStart++
	if _, err := tree.Merge(ctx, shifted, all, []byte(lines(20, nil)), true, Ask); err == nil || !strings.Contains(err.Error(), "does not match the snapshot") {
		t.Errorf("a hunk one line off: %v", err)
	}
}

// TestBlankContextLinesUnderSuppressBlankEmpty: with git's
// diff.suppressBlankEmpty set (a person's setting, or one a repository's
// config holds), git writes an empty context line as an empty line; the
// review reads it as one, and the merge gives the child's file, instead
// of baton crashing on the line.
func TestBlankContextLinesUnderSuppressBlankEmpty(t *testing.T) {
	ctx := context.Background()
	body := "a\n\nb\nc\n\nd\n"
	repo := newRepo(t, map[string]string{"f.txt": body})
	run(t, repo, "config", "diff.suppressBlankEmpty", "true")
	tree, _ := startTree(t, repo)
	child := "a\n\nB\nc\n\nd\n"
	write(t, tree.Dir, "f.txt", child)
	change, err := tree.Diff(ctx)
	if err != nil {
		t.Fatal(err)
	}
	m, err := tree.Merge(ctx, change.Files[0], all, []byte(body), true, Ask)
	if err != nil || string(m.Data) != child {
		t.Errorf("merged %q, %v; want %q", m.Data, err, child)
	}
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

// TestChangeNamingAMissingObjectIsAnError: a change whose snapshot or new
// content the repository does not hold is an error naming the object.
func TestChangeNamingAMissingObjectIsAnError(t *testing.T) {
	ctx := context.Background()
	repo := newRepo(t, map[string]string{"f.txt": "x\n", "img.bin": binary("old")})
	tree, _ := startTree(t, repo)
	write(t, tree.Dir, "f.txt", "y\n")
	write(t, tree.Dir, "img.bin", binary("new"))
	change, err := tree.Diff(ctx)
	if err != nil {
		t.Fatal(err)
	}
	missing := strings.Repeat("1", 40)
	for _, f := range change.Files {
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
}
