package sandbox

import (
	"os"
	"path/filepath"
	"slices"
)

// The home folder holds the credentials of every tool a person has, and
// new tools add new ones; a list of them is never complete. So commands
// read only what builds need there (homeForBuilds, the toolchains the
// environment names, the folders on $PATH), the way to the workspace,
// the workspace's neighbours (path dependencies on sibling checkouts
// build), and whatever the policy grants. Everything else in the home
// folder is hidden like a credential. It is listed when a command
// starts, so a tool installed later is hidden too.

// homeHidden lists the real paths of what commands may not read in the
// home folder; nil when there is no home, or a grant holds all of it.
func (p Policy) homeHidden() []string {
	if p.Home == "" {
		return nil
	}
	home, err := filepath.EvalSymlinks(p.Home)
	if err != nil || home == "/" {
		return nil
	}
	keep := realPaths(p.homeKeep())
	for _, k := range keep {
		if within(k, home) {
			return nil
		}
	}
	// A folder for builds that holds the home folder ("/" or the home
	// folder itself on $PATH) keeps nothing more.
	for _, k := range realPaths(p.HomeReadable) {
		if holds(home, k) {
			keep = append(keep, k)
		}
	}
	return hideAllBut(home, keep)
}

// homeKeep is what the policy grants, which stays readable in the home
// folder: the writable, readable and socket paths, the workspace, the
// top of its git repository and that folder's other entries (its parent,
// unless the parent holds the home folder).
func (p Policy) homeKeep() []string {
	keep := slices.Concat(p.Writable, p.ExtraWritable, p.ExtraReadable, p.AllowSockets)
	if p.Workspace == "" {
		return keep
	}
	top := p.Workspace
	for dir := p.Workspace; dir != p.Home && filepath.Dir(dir) != dir; dir = filepath.Dir(dir) {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			top = dir
			break
		}
	}
	keep = append(keep, p.Workspace, top)
	if parent := filepath.Dir(top); !within(parent, p.Home) && parent != filepath.Dir(parent) {
		keep = append(keep, parent)
	}
	return keep
}

// realPaths resolves each path's links, keeping the ones that exist.
func realPaths(paths []string) []string {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			out = append(out, real)
		}
	}
	return out
}

// hideAllBut lists the entries under dir to hide so that exactly the
// keep paths (and what they hold) and the way to them stay: an entry that
// holds a kept path is opened and its other entries hidden. A link grants
// nothing itself: what it points to is hidden where it lives, unless
// kept or on the way to a kept path.
func hideAllBut(dir string, keep []string) []string {
	f, err := os.Open(dir)
	if err != nil {
		return nil
	}
	names, _ := f.Readdirnames(-1)
	_ = f.Close()
	var out []string
	for _, name := range names {
		path := filepath.Join(dir, name)
		if slices.Contains(keep, path) {
			continue
		}
		var inner []string
		for _, k := range keep {
			if holds(path, k) {
				inner = append(inner, k)
			}
		}
		if len(inner) > 0 {
			out = append(out, hideAllBut(path, inner)...)
			continue
		}
		if info, err := os.Lstat(path); err == nil && info.Mode()&os.ModeSymlink != 0 {
			if target, ok := linkToHide(path, keep); ok {
				out = append(out, target)
			}
			continue
		}
		out = append(out, path)
	}
	return out
}

// linkToHide resolves a link in the home folder: its target, unless the
// target is kept, or holds or lies in a kept path.
func linkToHide(link string, keep []string) (string, bool) {
	target, err := filepath.EvalSymlinks(link)
	if err != nil || target == "/" {
		return "", false
	}
	for _, k := range keep {
		if target == k || holds(k, target) || holds(target, k) {
			return "", false
		}
	}
	return target, true
}
