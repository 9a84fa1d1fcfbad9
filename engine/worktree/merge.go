package worktree

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Resolution says how a conflict between the person's file and the
// child's change is settled.
type Resolution string

// The resolutions.
const (
	// Ask writes nothing when there is a conflict and returns it, so the
	// person can look at both sides and pick.
	Ask Resolution = ""
	// Mine keeps the person's side of every conflict, Child the child's.
	Mine  Resolution = "mine"
	Child Resolution = "child"
	// Markers writes standard conflict markers for the person to edit.
	Markers Resolution = "markers"
)

// Conflict is one region both sides changed.
type Conflict struct {
	Mine, Child string
}

// Merged is what applying (part of) a file's change gives.
type Merged struct {
	// Data is the file's new content; Delete says the file goes; Same
	// says the person's file already is what the merge gives.
	Data   []byte
	Delete bool
	Same   bool
	// Executable is the mode a newly created file gets.
	Executable bool
	// Conflicts are set, and nothing is to be written, when the
	// resolution is Ask and the two sides disagree.
	Conflicts []Conflict
	// Marked counts the conflicts left as markers in Data.
	Marked int
}

// Merge applies the chosen hunks of f to the person's file (ours; exists
// false when they have no such file) with a three-way merge against the
// snapshot. Binary files and deletions apply whole.
func (t Tree) Merge(ctx context.Context, f File, chosen func(int) bool, ours []byte, exists bool, res Resolution) (Merged, error) {
	if f.Symlink() {
		return Merged{}, fmt.Errorf("%s: symbolic links are not applied; it is in %s", f.Path, t.Dir)
	}
	base, err := t.blob(ctx, f.OldBlob)
	if err != nil {
		return Merged{}, err
	}
	theirs, deleted := []byte(nil), f.Status == Deleted && allChosen(f, chosen)
	switch {
	case f.Binary:
		if theirs, err = t.blob(ctx, f.NewBlob); err != nil {
			return Merged{}, err
		}
	case !deleted:
		if theirs, err = applyHunks(base, f.Hunks, chosen); err != nil {
			return Merged{}, fmt.Errorf("%s: %w", f.Path, err)
		}
	}
	exec := f.NewMode == "100755"
	hadBase := f.Status != Added
	switch {
	case deleted || (f.Binary && f.Status == Deleted):
		return wholeFile(ours, exists, base, hadBase, nil, false, res)
	case f.Binary:
		return wholeFile(ours, exists, base, hadBase, theirs, exec, res)
	case !exists && hadBase:
		// The person deleted a file the child changed.
		return wholeFile(ours, exists, base, hadBase, theirs, exec, res)
	case !exists:
		return Merged{Data: theirs, Executable: exec}, nil
	}
	return t.mergeText(ctx, ours, base, theirs, exec, res)
}

// wholeFile settles a change that cannot be merged line by line: a
// deletion (theirs nil) or a binary file. It applies when the person's
// file is still the snapshot's, and is a conflict otherwise.
func wholeFile(ours []byte, exists bool, base []byte, hadBase bool, theirs []byte, exec bool, res Resolution) (Merged, error) {
	want := Merged{Data: theirs, Delete: theirs == nil, Executable: exec}
	switch {
	case exists == (theirs != nil) && bytes.Equal(ours, theirs):
		return Merged{Same: true}, nil
	case exists == hadBase && bytes.Equal(ours, base):
		return want, nil
	}
	switch res {
	case Child:
		return want, nil
	case Mine, Markers:
		// A deletion or a binary has no lines to mark: the person's
		// file stays as it is.
		return Merged{Same: true}, nil
	}
	return Merged{Conflicts: []Conflict{{Mine: describeSide(ours, exists), Child: describeSide(theirs, theirs != nil)}}}, nil
}

// describeSide shows one side of a whole-file conflict.
func describeSide(data []byte, exists bool) string {
	switch {
	case !exists:
		return "(file deleted)"
	case bytes.IndexByte(data, 0) >= 0:
		return fmt.Sprintf("(binary, %d bytes)", len(data))
	}
	return string(data)
}

// mergeText runs git merge-file on the three versions.
func (t Tree) mergeText(ctx context.Context, ours, base, theirs []byte, exec bool, res Resolution) (Merged, error) {
	if bytes.Equal(ours, theirs) {
		return Merged{Same: true}, nil
	}
	dir, err := os.MkdirTemp("", "baton-merge-*")
	if err != nil {
		return Merged{}, fmt.Errorf("merge: %w", err)
	}
	defer os.RemoveAll(dir)
	names := []string{"mine", "snapshot", "child"}
	for i, data := range [][]byte{ours, base, theirs} {
		if err := os.WriteFile(filepath.Join(dir, names[i]), data, 0o600); err != nil {
			return Merged{}, fmt.Errorf("merge: %w", err)
		}
	}
	args := []string{"merge-file", "-p", "-L", "mine", "-L", "snapshot", "-L", "child"}
	switch res {
	case Mine:
		args = append(args, "--ours")
	case Child:
		args = append(args, "--theirs")
	}
	for _, name := range names {
		args = append(args, filepath.Join(dir, name))
	}
	out, err := t.gitBytes(ctx, nil, args...)
	conflicts := 0
	if err != nil {
		if code := exitCode(err); code > 0 && code < 128 {
			conflicts = code
		} else {
			return Merged{}, fmt.Errorf("merge: %w", err)
		}
	}
	if conflicts > 0 && res == Ask {
		return Merged{Conflicts: parseConflicts(out)}, nil
	}
	if bytes.Equal(out, ours) {
		return Merged{Same: true}, nil
	}
	return Merged{Data: out, Executable: exec, Marked: conflicts}, nil
}

// parseConflicts reads the regions between conflict markers.
func parseConflicts(merged []byte) []Conflict {
	var out []Conflict
	var cur *Conflict
	side := 0
	for _, line := range splitLines(merged) {
		switch {
		case strings.HasPrefix(line, "<<<<<<< "):
			out = append(out, Conflict{})
			cur, side = &out[len(out)-1], 1
		case cur != nil && strings.HasPrefix(line, "=======") && strings.TrimRight(line, "\r\n") == "=======":
			side = 2
		case cur != nil && strings.HasPrefix(line, ">>>>>>> "):
			cur, side = nil, 0
		case side == 1:
			cur.Mine += line
		case side == 2:
			cur.Child += line
		}
	}
	return out
}

// allChosen reports whether every hunk of f is chosen.
func allChosen(f File, chosen func(int) bool) bool {
	for i := range f.Hunks {
		if !chosen(i) {
			return false
		}
	}
	return true
}

// blob reads a file's content from the repository's objects ("" is an
// absent file).
func (t Tree) blob(ctx context.Context, id string) ([]byte, error) {
	if id == "" || strings.Trim(id, "0") == "" {
		return nil, nil
	}
	out, err := t.gitBytes(ctx, nil, "cat-file", "blob", id)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", short(id), err)
	}
	return out, nil
}
