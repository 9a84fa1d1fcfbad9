package fanin

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/seed-e4e525a6/baton/engine/tools"
)

// ErrTreeChanged says a file the plan merged changed in the person's
// tree after the plan read it, so the plan no longer holds.
var ErrTreeChanged = errors.New("changed in your tree since the merge was previewed")

// Apply writes the plan's merge to the person's tree through ws (top is
// the repository's top, which the plan's paths are relative to). Every
// file is checked before any is written: when one changed since the plan
// read it, or cannot be written, nothing is. written names the files
// that reached the tree; it is short of the plan only when writing
// itself failed part way.
func (p Plan) Apply(ctx context.Context, ws *tools.Workspace, top string) (written []string, err error) {
	changes := p.Changes()
	for _, f := range changes {
		err := ws.Update(ctx, filepath.Join(top, filepath.FromSlash(f.Path)), func(old []byte, exists bool) (tools.FileUpdate, error) {
			if !f.same(old, exists) {
				return tools.FileUpdate{}, ErrTreeChanged
			}
			return tools.FileUpdate{Keep: true}, nil
		})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Path, err)
		}
	}
	for _, f := range changes {
		err := ws.Update(ctx, filepath.Join(top, filepath.FromSlash(f.Path)), func(old []byte, exists bool) (tools.FileUpdate, error) {
			if !f.same(old, exists) {
				return tools.FileUpdate{}, ErrTreeChanged
			}
			return tools.FileUpdate{Data: f.data, Delete: !f.exists, Executable: f.executable}, nil
		})
		if err != nil {
			return written, fmt.Errorf("%s: %w", f.Path, err)
		}
		written = append(written, f.Path)
	}
	return written, nil
}
