package tools

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// maxUpdateBytes bounds the file Update reads; a merge of anything larger
// is left to git by hand.
const maxUpdateBytes = 64 << 20

// FileUpdate is what becomes of a file Update was asked to change.
type FileUpdate struct {
	// Data is the new content, unless Delete removes the file or Keep
	// leaves it as it is.
	Data         []byte
	Delete, Keep bool
	// Executable marks a newly created file executable.
	Executable bool
}

// Update changes one workspace file to what change computes from its
// current content (exists false when there is none), holding the file's
// lock so no agent's edit lands in between, and writing atomically. It
// is how a reviewed change from a child's worktree reaches the person's
// tree, through the same guards as every write: inside the workspace, no
// symlink out, no git directory, regular files only.
func (w *Workspace) Update(ctx context.Context, path string, change func(old []byte, exists bool) (FileUpdate, error)) error {
	abs, err := w.ResolveForWrite(path)
	if err != nil {
		return err
	}
	_, unlock, err := w.files.lock(ctx, abs)
	if err != nil {
		return fmt.Errorf("wait for %s: %w", path, err)
	}
	defer unlock()
	old, exists, err := readRegular(abs, path)
	if err != nil {
		return err
	}
	u, err := change(old, exists)
	switch {
	case err != nil:
		return err
	case u.Keep:
		return nil
	case u.Delete:
		if err := os.Remove(abs); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("delete %s: %w", path, err)
		}
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := writeAtomic(abs, u.Data); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if !exists && u.Executable {
		if err := os.Chmod(abs, 0o755); err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
	}
	return nil
}

// readRegular reads a resolved path that must be a regular file of at
// most maxUpdateBytes, or absent: never a FIFO that would block, a device
// or a folder.
func readRegular(abs, path string) ([]byte, bool, error) {
	f, err := os.OpenFile(abs, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("read %s: %w", path, err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, false, fmt.Errorf("read %s: %w", path, err)
	}
	if !info.Mode().IsRegular() {
		return nil, false, fmt.Errorf("%s is not a regular file", path)
	}
	if info.Size() > maxUpdateBytes {
		return nil, false, fmt.Errorf("%s is larger than %d MiB", path, maxUpdateBytes>>20)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxUpdateBytes+1))
	if err != nil {
		return nil, false, fmt.Errorf("read %s: %w", path, err)
	}
	return data, true, nil
}
