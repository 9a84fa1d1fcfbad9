package mcp

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/seed-e4e525a6/baton/engine/tools"
)

// Size caps of the files servers are read from. ~/.claude.json keeps
// Claude Code's history too, so it may be large; a project file is small.
const (
	maxProjectFile = 1 << 20
	maxUserFile    = 32 << 20
)

// errNoFile says the file does not exist, which is not a problem.
var errNoFile = errors.New("no such file")

// projectFiles reads the files a repository hands us from one workspace:
// only a regular file that resolves inside it, with the size cap checked
// before reading. The workspace is opened (resolved, its git folders
// found) once for all of them.
type projectFiles struct {
	dir string
	ws  *tools.Workspace
	err error
}

// read reads the file rel (one name) of the workspace.
func (p *projectFiles) read(rel string) ([]byte, error) {
	if p.ws == nil && p.err == nil {
		p.ws, p.err = tools.NewWorkspace(p.dir)
	}
	if p.err != nil {
		return nil, p.err
	}
	// Most projects have none of the files: one look at the name in the
	// real folder says so without resolving it.
	if _, err := os.Lstat(filepath.Join(p.ws.Root(), rel)); errors.Is(err, fs.ErrNotExist) {
		return nil, errNoFile
	}
	path, err := p.ws.Resolve(rel)
	if err != nil {
		return nil, err
	}
	return readCapped(path, maxProjectFile)
}

// readCapped reads a regular file of at most max bytes. The file is
// opened without blocking and checked after opening, so a FIFO or device
// swapped in cannot hang or feed the read.
func readCapped(path string, max int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, errNoFile
	}
	if err != nil {
		return nil, fmt.Errorf("open: %w", unwrapPath(err))
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("stat: %w", unwrapPath(err))
	}
	if !info.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	if info.Size() > max {
		return nil, fmt.Errorf("larger than %d KiB", max>>10)
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, fmt.Errorf("read: %w", unwrapPath(err))
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("larger than %d KiB", max>>10)
	}
	return data, nil
}

// unwrapPath drops the path an fs error repeats; messages name the file.
func unwrapPath(err error) error {
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		return pe.Err
	}
	return err
}
