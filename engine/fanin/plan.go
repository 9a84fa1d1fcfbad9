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
	"bytes"
	"context"
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
	// existed and original are the person's file as the plan read it;
	// data, exists and executable what the merge makes of it.
	existed    bool
	original   []byte
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
	return f.exists && !bytes.Equal(f.data, f.original)
}

// Preview merges parts, in the order given, onto the person's files as
// read reads them, and writes nothing. A part whose chosen hunks conflict
// with the person's file or with a part merged before it is left out
// whole, so the parts in Order merge cleanly together.
func Preview(ctx context.Context, parts []Part, read Reader) (Plan, error) {
	p := Plan{}
	b := builder{plan: &p, read: read, files: map[string]int{}, merged: map[string][]change{}}
	for _, part := range parts {
		staged, left, err := b.mergePart(ctx, part)
		if err != nil {
			return Plan{}, err
		}
		if left != nil {
			p.Left = append(p.Left, *left)
			fi := b.files[left.Path]
			p.Files[fi].Conflicting = appendOnce(p.Files[fi].Conflicting, part.Agent)
			continue
		}
		for path, f := range staged {
			fi := b.files[path]
			f.By, f.Conflicting = p.Files[fi].By, p.Files[fi].Conflicting
			p.Files[fi] = f
		}
		for i, f := range part.Files {
			if _, ok := staged[f.Path]; ok {
				b.merged[f.Path] = append(b.merged[f.Path], change{part, i})
			}
		}
		p.Order = append(p.Order, part.Agent)
	}
	return p, nil
}

// builder works a plan out part by part.
type builder struct {
	plan *Plan
	read Reader
	// files indexes plan.Files by path; merged are the changes merged so
	// far into each path.
	files  map[string]int
	merged map[string][]change
}

// mergePart merges the chosen files of part onto the plan's files as
// they stand, and returns them merged, or where it conflicts.
func (b *builder) mergePart(ctx context.Context, part Part) (map[string]File, *Left, error) {
	p := b.plan
	staged := map[string]File{}
	var left *Left
	for i, f := range part.Files {
		if !anyChosen(f, part.Chosen[i]) {
			continue
		}
		fi, err := b.file(ctx, f.Path)
		if err != nil {
			return nil, nil, err
		}
		p.Files[fi].By = appendOnce(p.Files[fi].By, part.Agent)
		if f.Symlink() {
			p.Skipped = appendOnce(p.Skipped, f.Path)
			continue
		}
		if left != nil {
			continue // still listed as touching the rest of its files
		}
		cur := p.Files[fi]
		if s, ok := staged[f.Path]; ok {
			cur = s
		}
		m, err := change{part, i}.merge(ctx, cur)
		if err != nil {
			return nil, nil, err
		}
		if len(m.Conflicts) == 0 {
			staged[f.Path] = after(cur, m)
			continue
		}
		with, err := p.clashesWith(ctx, b.merged[f.Path], change{part, i}, fi)
		if err != nil {
			return nil, nil, err
		}
		left = &Left{Agent: part.Agent, Path: f.Path, With: with, Regions: len(m.Conflicts)}
	}
	return staged, left, nil
}

// file is the index of path in the plan's files, reading the person's
// file the first time it is met.
func (b *builder) file(ctx context.Context, path string) (int, error) {
	if fi, ok := b.files[path]; ok {
		return fi, nil
	}
	data, exists, err := b.read(ctx, path)
	if err != nil {
		return 0, fmt.Errorf("read %s: %w", path, err)
	}
	b.plan.Files = append(b.plan.Files, File{Path: path, existed: exists, original: data, data: data, exists: exists})
	b.files[path] = len(b.plan.Files) - 1
	return len(b.plan.Files) - 1, nil
}

// change is one file of a part.
type change struct {
	part Part
	file int
}

// merge merges c onto cur.
func (c change) merge(ctx context.Context, cur File) (worktree.Merged, error) {
	f := c.part.Files[c.file]
	m, err := c.part.Tree.Merge(ctx, f, c.part.Chosen[c.file], cur.data, cur.exists, worktree.Ask)
	if err != nil {
		return m, fmt.Errorf("merge %s of %s: %w", f.Path, c.part.Agent, err)
	}
	return m, nil
}

// clashesWith names the changes merged before (earlier) that c clashes
// with in file fi: each that conflicts with c on the person's file
// alone, or all of them when only their sum does. None: c clashes with
// the person's own edits.
func (p *Plan) clashesWith(ctx context.Context, earlier []change, c change, fi int) ([]event.AgentID, error) {
	person := File{data: p.Files[fi].original, exists: p.Files[fi].existed}
	var with, all []event.AgentID
	for _, e := range earlier {
		all = append(all, e.part.Agent)
		m, err := e.merge(ctx, person)
		if err != nil {
			return nil, err
		}
		alone, err := c.merge(ctx, after(person, m))
		if err != nil {
			return nil, err
		}
		if len(alone.Conflicts) > 0 {
			with = append(with, e.part.Agent)
		}
	}
	if len(with) == 0 {
		return all, nil
	}
	return with, nil
}

// after is cur after a clean merge.
func after(cur File, m worktree.Merged) File {
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
	return exists == f.existed && bytes.Equal(data, f.original)
}
