package tools

import (
	"os"
	"path/filepath"
	"slices"
)

// The person's shell runs programs from the folders on $PATH. Most lie
// where commands cannot write, but one may lie in the workspace (direnv's
// `PATH_add bin`, a relative `node_modules/.bin` or `.`) or the temp
// folder: a `git` or `ls` a command leaves there runs the next time the
// person types the name, unsandboxed. A build's own output there (bin/app)
// is the project's, like any file it writes; a program that takes the
// name of one found elsewhere on $PATH is a planted one. pathShadowGuards
// guards those names in each writable $PATH folder, so that the check
// after every command takes away what a command put there and puts back
// what it changed.

// maxShadowNames bounds the program names guarded per folder.
const maxShadowNames = 10000

// pathShadowGuards lists, for each folder on path that commands may write
// (a relative one read from root, where the person runs things), the
// names of the programs in the other folders on path.
func pathShadowGuards(root, path string, writable []string) []guarded {
	var dirs []string
	for _, d := range filepath.SplitList(path) {
		if d == "" {
			d = "."
		}
		if !filepath.IsAbs(d) {
			d = filepath.Join(root, d)
		}
		if real, err := filepath.EvalSymlinks(d); err == nil {
			d = real
		}
		if !slices.Contains(dirs, filepath.Clean(d)) {
			dirs = append(dirs, filepath.Clean(d))
		}
	}
	var out []guarded
	for _, d := range dirs {
		if !inAny(writable, filepath.Join(d, "x")) {
			continue
		}
		var names []string
		seen := map[string]bool{}
		for _, other := range dirs {
			if other == d || inAny(writable, filepath.Join(other, "x")) {
				continue
			}
			entries, _ := os.ReadDir(other)
			for _, e := range entries {
				if len(names) < maxShadowNames && !e.IsDir() && !seen[e.Name()] {
					seen[e.Name()] = true
					names = append(names, e.Name())
				}
			}
		}
		if len(names) > 0 {
			out = append(out, guarded{base: d, names: names})
		}
	}
	return out
}
