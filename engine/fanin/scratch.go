package fanin

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/seed-e4e525a6/baton/engine/tools"
	"github.com/seed-e4e525a6/baton/engine/worktree"
)

// InScratch lays the plan's merge out in a scratch worktree at dir (it
// must not exist yet), taken from the person's tree as it is now through
// a private index in snapScratch, calls run with the scratch's workspace
// (the folder of it the person works in), and removes the scratch. The
// person's files, index and stash are never touched.
func (p Plan) InScratch(ctx context.Context, repo worktree.Repo, snapScratch, dir string, run func(ws *tools.Workspace)) error {
	snap, err := repo.Take(ctx, snapScratch)
	if err != nil {
		return fmt.Errorf("scratch worktree: %w", err)
	}
	tree, err := repo.Add(ctx, dir, snap)
	if err != nil {
		return fmt.Errorf("scratch worktree: %w", err)
	}
	defer func() { _ = tree.Remove(context.WithoutCancel(ctx)) }()
	top, err := tools.NewWorkspace(tree.Dir)
	if err != nil {
		return fmt.Errorf("scratch worktree: %w", err)
	}
	for _, f := range p.Changes() {
		err := top.Update(ctx, filepath.Join(tree.Dir, filepath.FromSlash(f.Path)), func([]byte, bool) (tools.FileUpdate, error) {
			return tools.FileUpdate{Data: f.data, Delete: !f.exists, Executable: f.executable}, nil
		})
		if err != nil {
			return fmt.Errorf("scratch worktree: %w", err)
		}
	}
	ws, err := tools.NewWorkspace(tree.Workspace())
	if err != nil {
		return fmt.Errorf("scratch worktree: %w", err)
	}
	run(ws)
	return nil
}
