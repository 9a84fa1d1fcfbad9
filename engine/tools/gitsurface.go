package tools

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/seed-e4e525a6/baton/engine/sandbox"
)

// Where git looks decides what git runs. The worktree's `.git` (a folder,
// a `gitdir:` file or a link) names the git directory; its `commondir`
// names the shared one; their config, config.worktree, hooks/ and info/,
// every submodule's and linked worktree's, and every file the config
// files git reads include or name as a hook folder or a program, are run
// or read by git for the person, unsandboxed, at their next `git status`.
// surfaceOf finds all of them, as they stand before a command.

// gitDirNames are what git reads in a git directory: config and hooks,
// the pointer to the common directory, and info/ (attributes, excludes,
// sparse-checkout).
var gitDirNames = []string{"config", "config.worktree", "commondir", "hooks", "info"}

// worktreeNames are what git reads in a linked worktree's folder under
// the common directory's worktrees/.
var worktreeNames = []string{"commondir", "config.worktree", "gitdir"}

// Bounds of the surface: submodule and linked worktree folders looked at.
const maxGitSubdirs = 200

// surface is what commands in one workspace may not change.
type surface struct {
	// entries are the worktree's .git itself and those below it.
	entries []gitEntry
	sets    []guarded // files and folders compared and restored
	// pinned and protected are held by the kernel where it can (see
	// sandbox.Policy); readable are what git inside the sandbox must read.
	pinned, protected, readable []string
}

// surfaceOf finds what commands in the workspace root may not change
// under box: the project's agent settings, and everything git reads its
// config, hooks and programs from.
func surfaceOf(root string, box sandbox.Policy) surface {
	s := surface{entries: []gitEntry{recordEntry(filepath.Join(root, ".git"))}}
	project := guarded{base: root, names: slices.Clone(projectProtected)}
	gitDir, common := findGitDirs(root)
	// Names in the worktree's own .git folder are guarded from the
	// workspace, so that a .git swapped for a link cannot carry the
	// restore elsewhere.
	add := func(base, dir string, names []string) {
		if within(filepath.Join(root, ".git"), dir) {
			project.names = append(project.names, relNames(root, dir, names)...)
			return
		}
		s.sets = append(s.sets, guarded{base: base, names: relNames(base, dir, names)})
	}
	if gitDir != "" {
		add(gitDir, gitDir, gitDirNames)
		for _, sub := range submoduleDirs(gitDir) {
			add(gitDir, sub, gitDirNames)
		}
		s.readable = append(s.readable, gitDir)
	}
	if common != "" && common != gitDir {
		add(common, common, gitDirNames)
		s.readable = append(s.readable, common)
	}
	if common != "" {
		for _, wt := range worktreeDirs(common) {
			add(common, wt, worktreeNames)
		}
	}
	for _, nested := range nestedGitEntries(root) {
		e := recordEntry(nested)
		s.entries = append(s.entries, e)
		if e.kind == entryDir && len(s.sets) < maxGitSubdirs {
			s.sets = append(s.sets, guarded{base: root, names: relNames(root, nested, gitDirNames)})
		}
	}
	s.sets = append([]guarded{project}, s.sets...)

	writable := writableAreas(box)
	cfg := readGitConfigs(root, gitDir, common, os.Getenv)
	guardedAlready := func(p string) bool {
		for _, g := range s.sets {
			for _, n := range g.names {
				if within(filepath.Join(g.base, filepath.FromSlash(n)), p) {
					return true
				}
			}
		}
		return false
	}
	for _, p := range slices.Concat(cfg.files, cfg.hooks, cfg.programs) {
		if inAny(writable, p) && !guardedAlready(p) {
			s.sets = append(s.sets, guarded{base: filepath.Dir(p), names: []string{filepath.Base(p)}})
		}
	}
	s.sets = append(s.sets, pathShadowGuards(root, os.Getenv("PATH"), writable)...)
	s.readable = append(s.readable, cfg.files...)
	s.readable = append(s.readable, cfg.reads...)

	for _, e := range s.entries {
		if !inAny(writable, e.path) {
			continue
		}
		switch e.kind {
		case entryDir:
			s.pinned = append(s.pinned, e.path)
		case entryFile:
			s.protected = append(s.protected, e.path)
		}
	}
	for _, g := range s.sets {
		for _, n := range g.names {
			p := filepath.Join(g.base, filepath.FromSlash(n))
			if _, err := os.Lstat(p); err == nil && inAny(writable, p) {
				s.protected = append(s.protected, p)
			}
		}
	}
	return s
}

// findGitDirs finds the git directory of the worktree at root, as git
// would from there: its own .git (a folder, a link to one, or a gitdir:
// file), else the nearest above; and the common directory its commondir
// names.
func findGitDirs(root string) (gitDir, common string) {
walk:
	for dir := root; ; dir = filepath.Dir(dir) {
		dotGit := filepath.Join(dir, ".git")
		if info, err := os.Lstat(dotGit); err == nil {
			switch {
			case info.IsDir():
				gitDir = dotGit
			case info.Mode()&os.ModeSymlink != 0:
				if real, err := filepath.EvalSymlinks(dotGit); err == nil {
					gitDir = real
				}
			case info.Mode().IsRegular():
				gitDir = pointedTo(dir, dotGit, "gitdir:")
			}
			break walk
		}
		if filepath.Dir(dir) == dir {
			break
		}
	}
	if gitDir == "" {
		return "", ""
	}
	common = gitDir
	if c := pointedTo(gitDir, filepath.Join(gitDir, "commondir"), ""); c != "" {
		common = c
	}
	return gitDir, common
}

// submoduleDirs lists the git directories of submodules under gitDir's
// modules/, nested ones included.
func submoduleDirs(gitDir string) []string {
	var out []string
	var walk func(dir string, depth int)
	walk = func(dir string, depth int) {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if len(out) >= maxGitSubdirs || depth > 8 || !e.IsDir() {
				continue
			}
			sub := filepath.Join(dir, e.Name())
			if isGitDir(sub) {
				out = append(out, sub)
				walk(filepath.Join(sub, "modules"), depth+1)
			} else {
				walk(sub, depth+1)
			}
		}
	}
	walk(filepath.Join(gitDir, "modules"), 0)
	return out
}

// worktreeDirs lists the linked worktrees' folders under common.
func worktreeDirs(common string) []string {
	entries, _ := os.ReadDir(filepath.Join(common, "worktrees"))
	var out []string
	for _, e := range entries {
		if e.IsDir() && len(out) < maxGitSubdirs {
			out = append(out, filepath.Join(common, "worktrees", e.Name()))
		}
	}
	return out
}

// relNames are names inside dir, relative to base, slash-separated.
func relNames(base, dir string, names []string) []string {
	out := make([]string, 0, len(names))
	for _, n := range names {
		rel, err := filepath.Rel(base, filepath.Join(dir, n))
		if err == nil && !strings.HasPrefix(rel, "..") {
			out = append(out, filepath.ToSlash(rel))
		}
	}
	return out
}

// writableAreas are the real paths commands under box may write.
func writableAreas(box sandbox.Policy) []string {
	areas := slices.Concat(box.Writable, box.ExtraWritable)
	if box.Mode == sandbox.WorkspaceWrite {
		areas = append(areas, box.Workspace)
	}
	var out []string
	for _, p := range areas {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			out = append(out, real)
		}
	}
	return out
}

// inAny reports whether p lies in one of dirs, its folder's links
// resolved.
func inAny(dirs []string, p string) bool {
	if real, err := filepath.EvalSymlinks(filepath.Dir(p)); err == nil {
		p = filepath.Join(real, filepath.Base(p))
	}
	for _, d := range dirs {
		if within(d, p) {
			return true
		}
	}
	return false
}

// restore puts back what commands changed, .git entries first, and
// takes away a .git that appeared below the top; it says what it did.
func (s surface) restore(root string, before []tree) []putBack {
	var done []putBack
	known := map[string]bool{}
	for _, e := range s.entries {
		known[e.path] = true
		done = append(done, e.restore()...)
	}
	for i, g := range s.sets {
		done = append(done, g.restore(before[i])...)
	}
	for _, p := range nestedGitEntries(root) {
		if !known[p] {
			done = append(done, gitEntry{path: p}.restore()...)
		}
	}
	return done
}
