package sandbox

import (
	"os"
	"path/filepath"
	"strings"
)

// In returns p for commands that work in another root, a child's git
// worktree: writes go there instead of p's workspace, which stays only
// readable. A hidden folder that holds root (baton's state folder holds
// the worktrees beside the transcripts) stays hidden except along the way
// down to root: every other entry on that way is hidden one by one.
func (p Policy) In(root string) Policy {
	p = p.WithNetwork(p.Network)
	p.Workspace = root
	real := root
	if r, err := filepath.EvalSymlinks(root); err == nil {
		real = r
	}
	var hidden []string
	for _, h := range p.Hidden {
		hReal := h
		if r, err := filepath.EvalSymlinks(h); err == nil {
			hReal = r
		}
		switch {
		case holds(h, root):
			hidden = append(hidden, besideTheWay(h, root)...)
		case holds(hReal, real):
			hidden = append(hidden, besideTheWay(hReal, real)...)
		default:
			hidden = append(hidden, h)
		}
	}
	p.Hidden = hidden
	return p
}

// holds reports whether root lies strictly inside dir.
func holds(dir, root string) bool {
	rel, err := filepath.Rel(dir, root)
	return err == nil && rel != "." && !filepath.IsAbs(rel) && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// besideTheWay lists, for each folder from dir down to root's parent,
// its entries other than the next step towards root.
func besideTheWay(dir, root string) []string {
	rel, _ := filepath.Rel(dir, root)
	var out []string
	for _, step := range strings.Split(rel, string(filepath.Separator)) {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if e.Name() != step {
				out = append(out, filepath.Join(dir, e.Name()))
			}
		}
		dir = filepath.Join(dir, step)
	}
	return out
}

// within reports whether p is dir or below it.
func within(dir, p string) bool {
	return dir == p || holds(dir, p)
}
