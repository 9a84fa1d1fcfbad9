package tools

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/seed-e4e525a6/baton/engine/realpath"
)

// readableKey keys the folders a call may read beyond the workspace.
type readableKey struct{}

// WithReadable lets the reading tools (read_file, list_files, find_files,
// grep) of calls run with ctx also reach dirs: absolute folders with
// their symlinks resolved, such as the folder of a skill the agent
// loaded. Writes stay inside the workspace.
func WithReadable(ctx context.Context, dirs []string) context.Context {
	if len(dirs) == 0 {
		return ctx
	}
	return context.WithValue(ctx, readableKey{}, dirs)
}

// ResolveRead is Resolve for a path that will only be read: inside the
// workspace, or inside a folder ctx makes readable, symlinks included (a
// link inside such a folder that leads out of it fails).
func (w *Workspace) ResolveRead(ctx context.Context, path string) (string, error) {
	resolved, err := w.Resolve(path)
	dirs, _ := ctx.Value(readableKey{}).([]string)
	if err == nil || len(dirs) == 0 || !filepath.IsAbs(path) {
		return resolved, err
	}
	abs := filepath.Clean(path)
	for _, dir := range dirs {
		if !within(dir, abs) {
			continue
		}
		real, rerr := realpath.Resolve(abs)
		if rerr != nil {
			return "", fmt.Errorf("resolve path %q: %w", path, rerr)
		}
		if !within(dir, real) {
			return "", fmt.Errorf("path %q leads outside %s through a symlink", path, dir)
		}
		return real, nil
	}
	return "", err
}
