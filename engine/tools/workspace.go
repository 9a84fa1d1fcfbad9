package tools

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/seed-e4e525a6/baton/engine/realpath"
)

// Workspace is the folder every tool path must stay inside. It is the one
// guardrail all file tools go through, so a model cannot read or write
// outside it by `..`, an absolute path or a symlink.
type Workspace struct {
	root string
	// gitDirs are the git directories a `.git` file points at, found
	// when the workspace opens; writes into them are refused.
	gitDirs []string
	// files serialises read-modify-write changes (write_file, edit_file)
	// per file, so two agents editing one file never lose each other's
	// edit (see Serial).
	files fileLocks
	// editor, when baton serves an editor, is where the person's files
	// are read and written and commands run (see Editor).
	editor Editor
}

// ShareLocks makes the workspace's writers hold their files with l, the
// lock table of the baton process this one works for. Call it before
// any tool of the workspace runs.
func (w *Workspace) ShareLocks(l Locker) { w.files.shared = l }

// NewWorkspace makes root absolute and resolves its symlinks, so later
// containment checks compare real paths with a real root.
func NewWorkspace(root string) (*Workspace, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("open workspace %q: %w", root, err)
	}
	resolved, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("open workspace %q: %w", root, err)
	}
	info, err := os.Stat(resolved)
	if err != nil {
		return nil, fmt.Errorf("open workspace %q: %w", root, err)
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("open workspace %q: not a directory", root)
	}
	return &Workspace{root: resolved, gitDirs: linkedGitDirs(resolved)}, nil
}

// Root is the workspace's absolute, symlink-free path.
func (w *Workspace) Root() string { return w.root }

// Resolve turns a path from the model into a real absolute path inside the
// workspace. Relative paths are relative to the root; absolute ones must lie
// inside it. Symlinks are resolved (for a file that does not exist yet,
// through its longest existing prefix), and a path whose target leaves the
// workspace fails.
func (w *Workspace) Resolve(path string) (string, error) {
	if path == "" {
		return "", errors.New("path is empty")
	}
	abs := filepath.Clean(path)
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(w.root, abs)
	}
	if !w.contains(abs) {
		return "", fmt.Errorf("path %q is outside the workspace %s", path, w.root)
	}
	resolved, err := realpath.Resolve(abs)
	if err != nil {
		return "", fmt.Errorf("resolve path %q: %w", path, err)
	}
	if !w.contains(resolved) {
		return "", fmt.Errorf("path %q leads outside the workspace %s through a symlink", path, w.root)
	}
	return resolved, nil
}

// ResolveForWrite is Resolve for paths that will be changed: it also
// refuses anything inside a git directory, since a model editing git's
// internals can corrupt or rewrite history or plant a hook that runs at
// the next commit: a .git folder at any depth, and a git directory by any
// other name (see gitDirOf).
func (w *Workspace) ResolveForWrite(path string) (string, error) {
	resolved, err := w.Resolve(path)
	if err != nil {
		return "", err
	}
	lexical := filepath.Clean(path)
	if filepath.IsAbs(lexical) {
		lexical = w.Rel(lexical)
	}
	if inGitDir(lexical) || inGitDir(w.Rel(resolved)) {
		return "", fmt.Errorf("path %q is inside a .git directory; writes there are refused", path)
	}
	if dir := w.gitDirOf(resolved); dir != "" {
		return "", fmt.Errorf("path %q is inside the git directory %s; writes there are refused", path, w.Rel(dir))
	}
	return resolved, nil
}

// Rel renders an absolute path relative to the root with forward slashes,
// for display and for tool output the model can reuse as an argument. A
// path outside the root is returned unchanged.
func (w *Workspace) Rel(abs string) string {
	rel, err := filepath.Rel(w.root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return abs
	}
	return filepath.ToSlash(rel)
}

// contains reports whether the clean absolute path p is the root or below it.
func (w *Workspace) contains(p string) bool {
	rel, err := filepath.Rel(w.root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// inGitDir reports whether a relative path has a ".git" component, in any
// case: macOS and Windows file systems treat ".GIT" as the same folder.
func inGitDir(rel string) bool {
	for _, part := range strings.Split(filepath.ToSlash(rel), "/") {
		if strings.EqualFold(part, ".git") {
			return true
		}
	}
	return false
}
