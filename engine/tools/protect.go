package tools

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

// Landlock grants a folder with everything below it, so a sandboxed
// command that may write the workspace may also write .git, its config
// and hooks, and the project's agent settings. Those are run or trusted
// later outside the sandbox: git runs hooks, fsmonitor and filter
// drivers for the person, and a trusted folder's .mcp.json starts
// servers, its settings allow commands, its agent files grant tools and
// the network. Where commands get a mount namespace, the kernel holds
// them read-only (see sandbox.Policy); everywhere, baton records them
// before a command, compares after it, puts back what changed, checks
// that it is back, and says exactly what it did.

// projectProtected are the project files, relative to the workspace,
// that widen what runs unsandboxed once the folder is trusted.
var projectProtected = []string{
	".mcp.json", "opencode.json", "opencode.jsonc", ".claude/settings.json",
	".claude/settings.local.json", ".claude/agents", ".claude/commands", ".baton", ".opencode",
}

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

// putBack is one thing restore did, or could not do, to one path.
type putBack struct {
	path   string // absolute
	did    string // "content put back", "removed (the command created it)"…
	err    error
	inside int // entries put back inside a folder put back
}

// removedCreated is what restore did to what a command created.
const removedCreated = "removed (the command created it)"

// restore puts g.base's protected names back as recorded before and
// says what it did to each. Writes go through an os.Root, so a folder
// swapped for a link cannot carry them outside the base. What is still
// not as it was afterwards is reported as not put back.
func (g guarded) restore(before tree) []putBack {
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
	abs := func(name string) string { return filepath.Join(g.base, filepath.FromSlash(name)) }
	r, err := os.OpenRoot(g.base)
	if err != nil {
		return []putBack{{path: g.base, err: err}}
	}
	defer r.Close()
	done := map[string]*putBack{}
	var out []*putBack
	note := func(name, did string, err error) {
		p := &putBack{path: abs(name), did: did, err: err}
		done[name] = p
		out = append(out, p)
	}
	// Added names go first, deepest first; a name inside one removed
	// is not reported again.
	for _, name := range slices.Backward(changed) {
		if _, ok := before[name]; !ok {
			note(name, removedCreated, r.RemoveAll(name))
		}
	}
	for _, name := range changed {
		b, ok := before[name]
		if !ok {
			continue
		}
		if b.big {
			note(name, "", errors.New("changed, and too large for baton to have kept a copy"))
			continue
		}
		a, existed := after[name]
		replaced := existed && (a.mode.Type() != b.mode.Type())
		if replaced {
			_ = r.RemoveAll(name)
		}
		var err error
		did := "content put back"
		switch {
		case b.mode.IsDir():
			did = "permissions put back"
			if !existed || replaced {
				did = "folder put back"
				err = r.Mkdir(name, b.mode.Perm())
			}
			err = errors.Join(err, r.Chmod(name, b.mode.Perm()))
		case b.mode&fs.ModeSymlink != 0:
			did = "link put back"
			_ = r.Remove(name)
			err = r.Symlink(string(b.data), name)
		case b.mode.IsRegular():
			if existed && !replaced {
				_ = r.Remove(name) // a hard link to elsewhere is replaced, not written through
			}
			err = errors.Join(r.WriteFile(name, b.data, b.mode.Perm()), r.Chmod(name, b.mode.Perm()))
		}
		switch {
		case !existed:
			did += " (the command had removed it)"
		case replaced:
			did += " (the command had replaced it with " + kindOf(a.mode) + ")"
		}
		note(name, did, err)
	}
	// Check: what is still not as it was is reported so.
	again := g.record()
	for _, name := range changed {
		b, was := before[name]
		a, is := again[name]
		if was == is && (!was || b.big || b.same(a)) {
			continue
		}
		if p := done[name]; p != nil && p.err == nil {
			p.err = errors.New("still not as it was")
		}
	}
	return summarize(out)
}

// summarize drops from what restore did the lines a folder's line says
// already: what was inside a folder it removed, and what it put back,
// as it was, inside a folder it put back (counted there).
func summarize(done []*putBack) []putBack {
	holderOf := func(p *putBack) *putBack {
		for _, q := range done {
			if q != p && q.err == nil && q.path != p.path && within(q.path, p.path) &&
				(q.did == removedCreated || strings.HasPrefix(q.did, "folder put back")) {
				return q
			}
		}
		return nil
	}
	var shown []*putBack
	for _, p := range done {
		switch h := holderOf(p); {
		case h == nil || p.err != nil:
			shown = append(shown, p)
		case h.did != removedCreated:
			h.inside++
		}
	}
	out := make([]putBack, 0, len(shown))
	for _, p := range shown {
		if p.inside > 0 {
			p.did += fmt.Sprintf(", with the %d entries it held", p.inside)
		}
		out = append(out, *p)
	}
	return out
}

// kindOf names a file type for people.
func kindOf(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeSymlink != 0:
		return "a link"
	case m.IsRegular():
		return "a file"
	}
	return "a special file"
}

// describe is one line of the note to the model: the path relative to
// the workspace where it lies inside, and what was done.
func (p putBack) describe(root string) string {
	name := p.path
	if rel, err := filepath.Rel(root, p.path); err == nil && !filepath.IsAbs(rel) && rel != ".." && !startsWithDotDot(rel) {
		name = rel
	}
	if p.err != nil {
		if p.did == "" {
			return fmt.Sprintf("%s: NOT put back: %v", name, p.err)
		}
		return fmt.Sprintf("%s: NOT put back (tried: %s): %v", name, p.did, p.err)
	}
	return name + ": " + p.did
}

func startsWithDotDot(rel string) bool {
	return len(rel) >= 3 && rel[:3] == ".."+string(filepath.Separator)
}
