package tools

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"github.com/seed-e4e525a6/baton/agenttypes/repofile"
)

// maxGitFileBytes bounds a `.git` file or a `commondir` file, which hold
// one path.
const maxGitFileBytes = 4 << 10

// linkedGitDirs finds the git directories a `.git` FILE points at, as
// `git init --separate-git-dir`, linked worktrees and submodules write
// one: the folder named by its "gitdir:" line and that folder's common
// dir. The nearest `.git` at or above root decides; a `.git` folder needs
// no entry, since its name already protects it.
func linkedGitDirs(root string) []string {
	for dir := root; ; dir = filepath.Dir(dir) {
		info, err := os.Lstat(filepath.Join(dir, ".git"))
		if err == nil {
			if !info.Mode().IsRegular() {
				return nil
			}
			gitDir := pointedTo(dir, filepath.Join(dir, ".git"), "gitdir:")
			if gitDir == "" {
				return nil
			}
			dirs := []string{gitDir}
			if common := pointedTo(gitDir, filepath.Join(gitDir, "commondir"), ""); common != "" {
				dirs = append(dirs, common)
			}
			return dirs
		}
		if filepath.Dir(dir) == dir {
			return nil
		}
	}
}

// pointedTo reads the path in a git pointer file (after prefix, relative
// to base), resolved; "" when there is none. The file is read like every
// file a repository hands us: regular, capped, never blocking.
func pointedTo(base, file, prefix string) string {
	f, err := repofile.Read("", file, maxGitFileBytes)
	if err != nil {
		return ""
	}
	line, _, _ := bytes.Cut(f.Data, []byte{'\n'})
	target, ok := strings.CutPrefix(strings.TrimSpace(string(line)), prefix)
	target = strings.TrimSpace(target)
	if !ok || target == "" {
		return ""
	}
	if !filepath.IsAbs(target) {
		target = filepath.Join(base, target)
	}
	if resolved, err := filepath.EvalSymlinks(target); err == nil {
		return resolved
	}
	return filepath.Clean(target)
}

// gitDirOf returns the git directory that holds the resolved path abs, or
// "": one a `.git` file points at, or any folder from abs up to the root
// that is a git directory by its contents, whatever its name (a bare
// repository, a `--separate-git-dir` target, a `core.worktree` setup's
// store).
func (w *Workspace) gitDirOf(abs string) string {
	for _, dir := range w.gitDirs {
		if within(dir, abs) {
			return dir
		}
	}
	for dir := abs; w.contains(dir); dir = filepath.Dir(dir) {
		if isGitDir(dir) {
			return dir
		}
		if dir == w.root {
			break
		}
	}
	return ""
}

// isGitDir says whether dir looks like a git directory to git itself: a
// HEAD file and objects/ and refs/ folders.
func isGitDir(dir string) bool {
	head, err := os.Lstat(filepath.Join(dir, "HEAD"))
	if err != nil || head.IsDir() {
		return false
	}
	for _, sub := range []string{"objects", "refs"} {
		if info, err := os.Stat(filepath.Join(dir, sub)); err != nil || !info.IsDir() {
			return false
		}
	}
	return true
}

// within reports whether p is dir or below it.
func within(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
