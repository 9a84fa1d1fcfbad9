package tools

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
)

// errEnough stops a walk that found as many paths as were asked for.
var errEnough = errors.New("enough paths")

// Paths lists the workspace's files and folders for completing the
// person's @mentions: workspace-relative, slash-separated, folders ending
// in "/", in tree order; .git, gitignored entries and what the context's
// withhold leaves out (files a deny rule covers) are skipped, as in
// list_files. At most limit are returned; more says there were more.
func Paths(ctx context.Context, ws *Workspace, limit int) (paths []string, more bool, err error) {
	_, err = walkVisible(ctx, ws, ws.Root(), 0, func(abs string, d fs.DirEntry) error {
		if len(paths) == limit {
			more = true
			return errEnough
		}
		rel, err := filepath.Rel(ws.Root(), abs)
		if err != nil {
			return nil
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			rel += "/"
		}
		paths = append(paths, rel)
		return nil
	})
	if errors.Is(err, errEnough) {
		err = nil
	}
	return paths, more, err
}
