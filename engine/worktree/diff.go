package worktree

import (
	"context"
	"fmt"
	"strings"
)

// maxFiles bounds how many files one child's change may touch and still
// be reviewed here; a larger change stays in its worktree for git.
const maxFiles = 2000

// Status is what a change does to a file.
type Status string

// The statuses of a changed file.
const (
	Added    Status = "added"
	Modified Status = "modified"
	Deleted  Status = "deleted"
)

// File is one file's part of a child's change.
type File struct {
	// Path is relative to the repository's top, with forward slashes.
	Path   string
	Status Status
	// OldMode and NewMode are git's modes ("100644", "100755", "120000"
	// for a symlink, "" where the file is absent).
	OldMode, NewMode string
	// OldBlob and NewBlob name the contents in the repository's objects.
	OldBlob, NewBlob string
	// Binary files have no hunks and apply whole.
	Binary bool
	Hunks  []Hunk
	// Added and Removed count lines.
	Added, Removed int
}

// Symlink reports whether either side of the file is a symbolic link,
// which is never written into the person's tree.
func (f File) Symlink() bool { return f.OldMode == "120000" || f.NewMode == "120000" }

// Change is everything a child changed in its worktree against its
// snapshot.
type Change struct {
	Files []File
}

// Counts returns lines added and removed, and files touched.
func (c Change) Counts() (added, removed, files int) {
	for _, f := range c.Files {
		added += f.Added
		removed += f.Removed
	}
	return added, removed, len(c.Files)
}

// Diff records every file in the worktree (ignored ones aside) in its own
// index and compares that with the snapshot.
func (t Tree) Diff(ctx context.Context) (Change, error) {
	if _, err := t.git(ctx, nil, "add", "-A", "--", "."); err != nil {
		return Change{}, fmt.Errorf("diff worktree: %w", err)
	}
	raw, err := t.git(ctx, nil, "diff", "--cached", "--raw", "-z", "--no-renames", "--no-abbrev", t.Base, "--")
	if err != nil {
		return Change{}, fmt.Errorf("diff worktree: %w", err)
	}
	files, err := parseRaw(raw)
	if err != nil {
		return Change{}, fmt.Errorf("diff worktree: %w", err)
	}
	if len(files) > maxFiles {
		return Change{}, fmt.Errorf("diff worktree: %d files changed, more than the %d a review can hold; see %s", len(files), maxFiles, t.Dir)
	}
	for i := range files {
		text, err := t.git(ctx, nil, "diff", "--cached", "--no-renames", "--no-color", "--no-ext-diff", "--no-textconv",
			"--src-prefix=a/", "--dst-prefix=b/", "-U3", t.Base, "--", files[i].Path)
		if err != nil {
			return Change{}, fmt.Errorf("diff %s: %w", files[i].Path, err)
		}
		if err := parseUnified(text, &files[i]); err != nil {
			return Change{}, fmt.Errorf("diff %s: %w", files[i].Path, err)
		}
	}
	return Change{Files: files}, nil
}

// parseRaw reads `git diff --raw -z`: ":old new oldsha newsha S\0path\0".
func parseRaw(raw string) ([]File, error) {
	fields := strings.Split(raw, "\x00")
	var files []File
	for i := 0; i+1 < len(fields); i += 2 {
		meta := strings.Fields(strings.TrimPrefix(fields[i], ":"))
		if len(meta) != 5 {
			return nil, fmt.Errorf("unexpected raw diff line %q", fields[i])
		}
		f := File{Path: fields[i+1], OldMode: meta[0], NewMode: meta[1], OldBlob: meta[2], NewBlob: meta[3], Status: Modified}
		switch meta[4][:1] {
		case "A":
			f.Status, f.OldMode, f.OldBlob = Added, "", ""
		case "D":
			f.Status, f.NewMode, f.NewBlob = Deleted, "", ""
		}
		files = append(files, f)
	}
	return files, nil
}
