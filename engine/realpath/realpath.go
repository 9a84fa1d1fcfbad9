// Package realpath resolves a path's symlinks the way a write through it
// would: through its longest existing prefix, following a dangling link
// by hand to where it would create its target. The workspace guard
// (engine/tools) and the file rules (engine/rules) both resolve with it,
// so a rule sees the file a tool would really touch.
package realpath

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// maxHops bounds how many dangling symlinks Resolve follows by hand, so
// a loop of links ends in an error instead of recursing forever.
const maxHops = 40

// Resolve returns the absolute, symlink-free form of the clean absolute
// path p. Components that do not exist yet are appended to the resolved
// existing prefix.
func Resolve(p string) (string, error) {
	return resolve(p, 0)
}

func resolve(p string, hops int) (string, error) {
	existing, rest := p, ""
	for {
		if _, err := os.Lstat(existing); err == nil {
			break
		}
		parent := filepath.Dir(existing)
		if parent == existing {
			break
		}
		rest = filepath.Join(filepath.Base(existing), rest)
		existing = parent
	}
	resolved, err := filepath.EvalSymlinks(existing)
	if err == nil {
		return filepath.Join(resolved, rest), nil
	}
	info, lerr := os.Lstat(existing)
	if lerr != nil || info.Mode()&fs.ModeSymlink == 0 {
		return "", err
	}
	if hops >= maxHops {
		return "", fmt.Errorf("too many levels of symbolic links at %s", existing)
	}
	target, err := os.Readlink(existing)
	if err != nil {
		return "", err
	}
	if !filepath.IsAbs(target) {
		parent, err := filepath.EvalSymlinks(filepath.Dir(existing))
		if err != nil {
			return "", err
		}
		target = filepath.Join(parent, target)
	}
	return resolve(filepath.Join(target, rest), hops+1)
}
