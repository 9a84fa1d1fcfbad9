package tools

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"syscall"
)

// Landlock grants a folder with everything below it, so a sandboxed
// command that may write the workspace may also write .git/config,
// .git/hooks and the project's agent settings. Those are run or trusted
// later outside the sandbox: git runs hooks and filter drivers for the
// person, and a trusted folder's .mcp.json starts servers, its settings
// allow commands, its agent files grant tools and the network. Since the
// kernel cannot take them out of the grant, baton records them before a
// command and puts them back after it, and says so.

// projectProtected are the project files, relative to the workspace,
// that widen what runs unsandboxed once the folder is trusted.
var projectProtected = []string{
	".mcp.json", "opencode.json", "opencode.jsonc", ".claude/settings.json",
	".claude/settings.local.json", ".claude/agents", ".claude/commands", ".baton", ".opencode",
}

// gitProtected are the parts of a git directory git runs programs from.
var gitProtected = []string{"config", "config.worktree", "hooks"}

// Bounds of what is recorded: settings and hooks are small; a folder
// past these is compared by what it holds but not restored beyond them.
const (
	maxProtectedEntries = 2000
	maxProtectedFile    = 1 << 20
)

// entry is one recorded file, folder or link.
type entry struct {
	mode fs.FileMode
	data []byte // a file's content, a link's target
	big  bool   // a file too large to keep: compared by size only
	size int64
}

func (e entry) same(o entry) bool {
	return e.mode == o.mode && e.big == o.big && e.size == o.size && bytes.Equal(e.data, o.data)
}

// tree is what a base folder held under its protected names, by
// slash-separated path relative to the base.
type tree map[string]entry

// guarded is one base folder and the names under it that commands may
// not change.
type guarded struct {
	base  string
	names []string
}

// protectedOf lists what to guard for a workspace: its project files and
// the files of its git directory (a .git folder, or where a .git file
// points).
func protectedOf(root string) []guarded {
	out := []guarded{{base: root, names: slices.Clone(projectProtected)}}
	if info, err := os.Lstat(filepath.Join(root, ".git")); err == nil && info.IsDir() {
		for _, n := range gitProtected {
			out[0].names = append(out[0].names, ".git/"+n)
		}
		return out
	}
	for _, dir := range linkedGitDirs(root) {
		out = append(out, guarded{base: dir, names: gitProtected})
	}
	return out
}

// record reads the protected names under g.base; links are recorded,
// never followed, and only regular files are opened, never blocking.
func (g guarded) record() tree {
	t := tree{}
	r, err := os.OpenRoot(g.base)
	if err != nil {
		return t
	}
	defer r.Close()
	var walk func(name string)
	walk = func(name string) {
		if len(t) >= maxProtectedEntries {
			return
		}
		info, err := r.Lstat(name)
		if err != nil {
			return
		}
		e := entry{mode: info.Mode(), size: info.Size()}
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			target, _ := r.Readlink(name)
			e.data, e.size = []byte(target), 0
		case info.Mode().IsRegular() && info.Size() > maxProtectedFile:
			e.big = true
		case info.Mode().IsRegular():
			e.data = readProtected(r, name)
		case info.IsDir():
			e.size = 0
			if f, err := r.Open(name); err == nil {
				names, _ := f.Readdirnames(-1)
				f.Close()
				slices.Sort(names)
				for _, n := range names {
					walk(path.Join(name, n))
				}
			}
		}
		t[name] = e
	}
	for _, n := range g.names {
		walk(n)
	}
	return t
}

// readProtected reads a regular file inside r without blocking.
func readProtected(r *os.Root, name string) []byte {
	f, err := r.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return nil
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		return nil
	}
	data, _ := io.ReadAll(io.LimitReader(f, maxProtectedFile))
	return data
}

// restore puts g.base's protected names back as before recorded them and
// returns the names that had changed. Writes go through an os.Root, so a
// folder swapped for a link cannot carry them outside the base.
func (g guarded) restore(before tree) []string {
	after := g.record()
	var changed []string
	for name, e := range after {
		if b, ok := before[name]; !ok || !b.same(e) {
			changed = append(changed, name)
		}
	}
	for name := range before {
		if _, ok := after[name]; !ok {
			changed = append(changed, name)
		}
	}
	if len(changed) == 0 {
		return nil
	}
	slices.Sort(changed)
	r, err := os.OpenRoot(g.base)
	if err != nil {
		return changed
	}
	defer r.Close()
	for _, name := range slices.Backward(changed) {
		if _, ok := before[name]; !ok {
			_ = r.RemoveAll(name)
		}
	}
	for _, name := range changed {
		b, ok := before[name]
		if !ok || b.big {
			continue
		}
		if a, ok := after[name]; ok && !(a.mode.IsDir() && b.mode.IsDir()) {
			_ = r.RemoveAll(name)
		}
		switch {
		case b.mode.IsDir():
			_ = r.Mkdir(name, b.mode.Perm())
			_ = r.Chmod(name, b.mode.Perm())
		case b.mode&fs.ModeSymlink != 0:
			_ = r.Symlink(string(b.data), name)
		case b.mode.IsRegular():
			_ = r.WriteFile(name, b.data, b.mode.Perm())
			_ = r.Chmod(name, b.mode.Perm())
		}
	}
	return changed
}
