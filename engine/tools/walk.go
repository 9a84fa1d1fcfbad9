package tools

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	ignore "github.com/sabhiram/go-gitignore"

	"github.com/seed-e4e525a6/baton/agenttypes/repofile"
)

// maxIgnoreBytes bounds a .gitignore; a larger one is not applied.
const maxIgnoreBytes = 1 << 20

// ignorer answers "is this path gitignored?" from the .gitignore files of
// the root and of every directory below it, loading each once. A nil
// ignorer ignores nothing.
type ignorer struct {
	root  string
	cache map[string]*ignore.GitIgnore
	// notes name the .gitignore files that were skipped, for the result.
	notes []string
}

// newIgnorer returns an ignorer for the tree under root.
func newIgnorer(root string) *ignorer {
	return &ignorer{root: root, cache: map[string]*ignore.GitIgnore{}}
}

// ignored reports whether any .gitignore between the root and abs's parent
// ignores abs. Directories are matched with a trailing slash, as git does,
// so patterns like "build/" apply to them.
func (ig *ignorer) ignored(abs string, isDir bool) bool {
	if ig == nil {
		return false
	}
	rel, err := filepath.Rel(ig.root, abs)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return false
	}
	parts := strings.Split(filepath.ToSlash(rel), "/")
	dir := ig.root
	for i := range parts {
		if gi := ig.load(dir); gi != nil {
			p := strings.Join(parts[i:], "/")
			if isDir {
				p += "/"
			}
			if gi.MatchesPath(p) {
				return true
			}
		}
		dir = filepath.Join(dir, parts[i])
	}
	return false
}

// load returns the compiled .gitignore of dir, or nil when it has none.
func (ig *ignorer) load(dir string) *ignore.GitIgnore {
	if gi, ok := ig.cache[dir]; ok {
		return gi
	}
	ig.cache[dir] = nil
	path := filepath.Join(dir, ".gitignore")
	f, err := repofile.Read(ig.root, path, maxIgnoreBytes)
	var skip *repofile.SkipError
	switch {
	case errors.As(err, &skip):
		ig.note(path, skip.Reason)
		return nil
	case err != nil:
		if !errors.Is(err, fs.ErrNotExist) {
			ig.note(path, err.Error())
		}
		return nil
	case f.Cut:
		ig.note(path, fmt.Sprintf("larger than %d KiB", maxIgnoreBytes>>10))
		return nil
	}
	gi := ignore.CompileIgnoreLines(strings.Split(string(f.Data), "\n")...)
	ig.cache[dir] = gi
	return gi
}

// note records a .gitignore that was not applied and why.
func (ig *ignorer) note(path, why string) {
	rel, err := filepath.Rel(ig.root, path)
	if err != nil {
		rel = path
	}
	ig.notes = append(ig.notes, fmt.Sprintf("[note: %s not applied: %s]", filepath.ToSlash(rel), why))
}

// withNotes appends the walk's notes to a tool's output.
func withNotes(output string, notes []string) string {
	if len(notes) == 0 {
		return output
	}
	return output + "\n" + strings.Join(notes, "\n")
}

// walkVisible walks the tree under start (a resolved path inside ws) in
// lexical order and calls fn for every entry below start that is neither
// .git nor gitignored; maxDepth > 0 stops descending below that depth.
// When start itself is ignored the model named it on purpose, so nothing
// under it is filtered but .git. Unreadable directories are skipped; fn
// may return fs.SkipDir or fs.SkipAll. The notes it returns name the
// .gitignore files it could not apply (a device, a FIFO, a link leaving
// the workspace, too large), which are skipped rather than read, and the
// files the call's rules withhold (see WithWithhold), which fn never sees.
func walkVisible(ctx context.Context, ws *Workspace, start string, maxDepth int, fn func(abs string, d fs.DirEntry) error) ([]string, error) {
	held := newWithheld(ctx)
	ig := newIgnorer(ws.Root())
	var notes []string
	if info, err := os.Stat(start); err == nil && ig.ignored(start, info.IsDir()) {
		notes, ig = ig.notes, nil
	}
	err := filepath.WalkDir(start, func(abs string, d fs.DirEntry, err error) error {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return ctxErr
		}
		if err != nil {
			if abs == start {
				return err
			}
			return nil
		}
		if abs == start {
			return nil
		}
		if d.Name() == ".git" || ig.ignored(abs, d.IsDir()) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if held.skip(abs, d) {
			return nil
		}
		if err := fn(abs, d); err != nil {
			return err
		}
		if d.IsDir() && maxDepth > 0 && depth(start, abs) >= maxDepth {
			return fs.SkipDir
		}
		return nil
	})
	if ig != nil {
		notes = ig.notes
	}
	return append(notes, held.notes()...), err
}

// depth counts the path components of abs below start.
func depth(start, abs string) int {
	rel, err := filepath.Rel(start, abs)
	if err != nil {
		return 0
	}
	return strings.Count(rel, string(filepath.Separator)) + 1
}

// resolveDir resolves an optional directory argument ("" is the root) and
// checks that it is an existing directory.
func resolveDir(ctx context.Context, ws *Workspace, path string) (string, error) {
	path = orDot(path)
	abs, err := ws.ResolveRead(ctx, path)
	if err != nil {
		return "", err
	}
	info, err := os.Stat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("directory not found: %s", path)
	}
	if err != nil {
		return "", fmt.Errorf("stat %s: %w", path, err)
	}
	if !info.IsDir() {
		return "", fmt.Errorf("%s is not a directory", path)
	}
	return abs, nil
}

// orDot defaults an optional path argument to the workspace root.
func orDot(path string) string {
	if path == "" {
		return "."
	}
	return path
}
