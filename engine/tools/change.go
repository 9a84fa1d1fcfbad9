package tools

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"
)

// change is a planned rewrite of one text file, shared by write_file and
// edit_file so that Preview and Run show the very same diff.
type change struct {
	ws       *Workspace
	abs, rel string // the resolved path, and as shown in diffs
	old, new string
	exists   bool
	argPath  string // the path as the model wrote it, for error messages
}

// loadChange resolves a path for writing and reads what is there now (as
// the editor has it, when baton serves one). A missing file is a change
// from nothing; a directory or a binary file is refused, since a text
// diff of it would mean nothing.
func loadChange(ctx context.Context, ws *Workspace, path string) (change, error) {
	abs, err := ws.ResolveForWrite(path)
	if err != nil {
		return change{}, err
	}
	c := change{ws: ws, abs: abs, rel: ws.Rel(abs), argPath: path}
	info, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return c.unsaved(ctx), nil
	case err != nil:
		return change{}, fmt.Errorf("stat %s: %w", path, err)
	case info.IsDir():
		return change{}, fmt.Errorf("%s is a directory", path)
	case !info.Mode().IsRegular():
		return change{}, fmt.Errorf("%s is not a regular file", path)
	}
	data, err := c.read(ctx)
	if err != nil {
		return change{}, fmt.Errorf("read %s: %w", path, err)
	}
	if isBinary(data[:min(len(data), sniffBytes)]) {
		return change{}, fmt.Errorf("binary file: %s", path)
	}
	c.old, c.exists = string(data), true
	return c, nil
}

// unsaved is a change to a file the disk does not hold: a new file, or
// one only the editor has so far (written through it, not yet saved).
func (c change) unsaved(ctx context.Context) change {
	if c.ws.editor.Files == nil {
		return c
	}
	if text, err := c.ws.editor.Files.ReadTextFile(ctx, c.abs); err == nil && !isBinary([]byte(text[:min(len(text), sniffBytes)])) {
		c.old, c.exists = text, true
	}
	return c
}

// read returns the file's current content: the editor's, or the disk's.
func (c change) read(ctx context.Context) ([]byte, error) {
	if c.ws.editor.Files != nil {
		text, err := c.ws.editor.Files.ReadTextFile(ctx, c.abs)
		return []byte(text), err
	}
	return os.ReadFile(c.abs)
}

// diff is the unified diff from the old content to the new, "" when they
// are equal. A new file is diffed from /dev/null, as git shows it.
func (c change) diff() (string, error) {
	if c.exists && c.old == c.new {
		return "", nil
	}
	from := "a/" + c.rel
	if !c.exists {
		from = "/dev/null"
	}
	d, err := udiff.ToUnified(from, "b/"+c.rel, c.old, udiff.Strings(c.old, c.new), udiff.DefaultContextLines)
	if err != nil {
		return "", fmt.Errorf("diff %s: %w", c.argPath, err)
	}
	return d, nil
}

// preview renders the diff for an approval prompt without writing.
func (c change) preview() (string, error) {
	d, err := c.diff()
	if err == nil && d == "" {
		return "no changes to " + c.rel, nil
	}
	return d, err
}

// apply writes the new content, creating parent directories. The write
// is atomic (see writeAtomic): an existing file keeps its permissions, a
// new one gets 0644. When baton serves an editor, the editor writes it,
// so the change lands in the person's open buffer.
func (c change) apply(ctx context.Context) (Result, error) {
	d, err := c.diff()
	if err != nil {
		return Result{}, err
	}
	if d == "" {
		return Result{Output: c.rel + " unchanged", Summary: "no changes"}, nil
	}
	if err := os.MkdirAll(filepath.Dir(c.abs), 0o755); err != nil {
		return Result{}, fmt.Errorf("write %s: %w", c.argPath, err)
	}
	if err := c.write(ctx); err != nil {
		return Result{}, fmt.Errorf("write %s: %w", c.argPath, err)
	}
	verb := "wrote"
	if !c.exists {
		verb = "created"
	}
	lines := strings.Count(c.new, "\n")
	if c.new != "" && !strings.HasSuffix(c.new, "\n") {
		lines++
	}
	out := fmt.Sprintf("%s %s (%s)", verb, c.rel, plural(lines, "line", "lines"))
	return Result{Output: out, Summary: diffStat(d), Diff: d}, nil
}

// write puts the new content in place, through the editor when there is
// one.
func (c change) write(ctx context.Context) error {
	if c.ws.editor.Files != nil {
		return c.ws.editor.Files.WriteTextFile(ctx, c.abs, c.new)
	}
	return writeAtomic(c.abs, []byte(c.new))
}

// diffStat counts added and removed lines of a unified diff: "+12 -3".
// Only lines after the first hunk header count, so a removed line that
// starts with "--" is not mistaken for the file header.
func diffStat(diff string) string {
	added, removed, inHunks := 0, 0, false
	for _, line := range strings.Split(diff, "\n") {
		switch {
		case strings.HasPrefix(line, "@@"):
			inHunks = true
		case !inHunks:
		case strings.HasPrefix(line, "+"):
			added++
		case strings.HasPrefix(line, "-"):
			removed++
		}
	}
	return fmt.Sprintf("+%d -%d", added, removed)
}
