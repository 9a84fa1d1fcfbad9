// Package fanin brings the changes of several worktree sub-agents
// together before any of them reaches the person's tree: which files
// each touches, where they overlap or conflict (a three-way merge of all
// of them, one after another, onto the person's current files, worked out
// in memory), an order in which they merge cleanly, the merged files laid
// out in a scratch worktree where a verify command can run on the result,
// and the one step that writes the merged files to the person's tree, all
// of them or none.
package fanin

import (
	"context"
	"crypto/sha256"
	"fmt"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/worktree"
)

// Part is one child's change as it enters the fan-in: its worktree, its
// files and, for each file, which of its hunks are chosen.
type Part struct {
	Agent event.AgentID
	Tree  worktree.Tree
	Files []worktree.File
	// Chosen says, per file of Files, which hunks take part (a file
	// without hunks takes part whole when Chosen[i](0) holds).
	Chosen []func(hunk int) bool
}

// Reader reads one of the person's files by its path from the
// repository's top: its content, and whether it exists.
type Reader func(ctx context.Context, path string) ([]byte, bool, error)

// Plan is the merge of several parts onto the person's files.
type Plan struct {
	// Order is the parts that merge cleanly, in the order they merge.
	Order []event.AgentID
	// Left are the parts that conflict and are left out of the merge.
	Left []Left
	// Files are every file a part touches, in the order first met.
	Files []File
	// Skipped are the files no merge writes (symbolic links), by path.
	Skipped []string
}

// Left is a part left out of the merge and why.
type Left struct {
	Agent event.AgentID
	// Path is the first file it conflicts in, With the parts merged
	// before it that changed that file (none: the person's own edits),
	// Regions how many regions clash.
	Path    string
	With    []event.AgentID
	Regions int
}

// File is one file of the plan: who touches it and what the merge gives.
type File struct {
	Path string
	// By are the parts that change the file, Conflicting those of them
	// left out for a conflict in it.
	By          []event.AgentID
	Conflicting []event.AgentID
	// existed and before are the person's file as the plan read it;
	// data, exists and executable what the merge makes of it.
	existed    bool
	before     [sha256.Size]byte
	data       []byte
	exists     bool
	executable bool
}

// Overlap reports whether more than one part changes the file.
func (f File) Overlap() bool { return len(f.By) > 1 }

// Changed reports whether the merge changes the person's file.
func (f File) Changed() bool {
	if f.exists != f.existed {
		return true
	}
	return f.exists && sha256.Sum256(f.data) != f.before
}

// Preview merges parts, in the order given, onto the person's files as
// read reads them, and writes nothing. A part whose chosen hunks conflict
// with the person's file or with a part merged before it is left out
// whole, so the parts in Order merge cleanly together.
func Preview(ctx context.Context, parts []Part, read Reader) (Plan, error) {
	var p Plan
	files := map[string]int{}
	for _, part := range parts {
		staged := map[string]File{}
		var left *Left
		for i, f := range part.Files {
			chosen := part.Chosen[i]
			if !anyChosen(f, chosen) {
				continue
			}
			fi, err := p.file(ctx, files, f.Path, read)
			if err != nil {
				return Plan{}, err
			}
			p.Files[fi].By = appendOnce(p.Files[fi].By, part.Agent)
			if f.Symlink() {
				p.Skipped = appendOnce(p.Skipped, f.Path)
				continue
			}
			if left != nil {
				continue
			}
			cur := p.Files[fi]
			if s, ok := staged[f.Path]; ok {
				cur = s
			}
			m, err := part.Tree.Merge(ctx, f, chosen, cur.data, cur.exists, worktree.Ask)
			if err != nil {
				return Plan{}, fmt.Errorf("merge %s of %s: %w", f.Path, part.Agent, err)
			}
			if len(m.Conflicts) > 0 {
				left = &Left{Agent: part.Agent, Path: f.Path, With: p.mergedBy(cur.By, part.Agent), Regions: len(m.Conflicts)}
				continue
			}
			staged[f.Path] = merged(cur, m)
		}
		if left != nil {
			p.Left = append(p.Left, *left)
			for _, f := range part.Files {
				if fi, ok := files[f.Path]; ok && f.Path == left.Path {
					p.Files[fi].Conflicting = appendOnce(p.Files[fi].Conflicting, part.Agent)
				}
			}
			continue
		}
		for path, f := range staged {
			fi := files[path]
			f.By, f.Conflicting = p.Files[fi].By, p.Files[fi].Conflicting
			p.Files[fi] = f
		}
		p.Order = append(p.Order, part.Agent)
	}
	return p, nil
}

// file is the index of path in p.Files, reading the person's file the
// first time it is met.
func (p *Plan) file(ctx context.Context, files map[string]int, path string, read Reader) (int, error) {
	if fi, ok := files[path]; ok {
		return fi, nil
	}
	data, exists, err := read(ctx, path)
	if err != nil {
		return 0, fmt.Errorf("read %s: %w", path, err)
	}
	f := File{Path: path, existed: exists, before: sha256.Sum256(data), data: data, exists: exists}
	p.Files = append(p.Files, f)
	files[path] = len(p.Files) - 1
	return len(p.Files) - 1, nil
}

// mergedBy are the parts of by already merged (in p.Order), other than
// self.
func (p *Plan) mergedBy(by []event.AgentID, self event.AgentID) []event.AgentID {
	var out []event.AgentID
	for _, id := range by {
		for _, done := range p.Order {
			if id == done && id != self {
				out = append(out, id)
			}
		}
	}
	return out
}

// merged is cur after a clean merge.
func merged(cur File, m worktree.Merged) File {
	switch {
	case m.Same:
	case m.Delete:
		cur.data, cur.exists = nil, false
	default:
		cur.data, cur.exists = m.Data, true
		if !cur.existed {
			cur.executable = m.Executable
		}
	}
	return cur
}

// Clean reports whether every part merged.
func (p Plan) Clean() bool { return len(p.Left) == 0 }

// Changes are the files the merge changes.
func (p Plan) Changes() []File {
	var out []File
	for _, f := range p.Files {
		if f.Changed() {
			out = append(out, f)
		}
	}
	return out
}

// anyChosen reports whether any of f takes part.
func anyChosen(f worktree.File, chosen func(int) bool) bool {
	if len(f.Hunks) == 0 {
		return chosen(0)
	}
	for i := range f.Hunks {
		if chosen(i) {
			return true
		}
	}
	return false
}

// appendOnce appends v unless list holds it.
func appendOnce[T comparable](list []T, v T) []T {
	for _, x := range list {
		if x == v {
			return list
		}
	}
	return append(list, v)
}

// same reports whether the person's file is still what the plan read.
func (f File) same(data []byte, exists bool) bool {
	return exists == f.existed && sha256.Sum256(data) == f.before
}
