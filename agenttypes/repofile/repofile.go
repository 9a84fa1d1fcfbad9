// Package repofile reads the files a repository hands baton (AGENTS.md,
// CLAUDE.md, .baton/config.toml, .gitignore, agent files) without letting
// the repository choose what is read: only a regular file that resolves
// inside the workspace, never more than a cap, and never a read that can
// block. A cloned repository can symlink AGENTS.md to /proc/self/environ,
// /dev/zero, /dev/tty or a FIFO; each of those is refused, not read.
//
// It lives under agenttypes because both agenttypes (agent files) and
// engine (context files, .gitignore) need it, and the layering lets
// agenttypes import nothing else of baton but its own subpackages; engine
// and cmd may import agenttypes and so this leaf too.
package repofile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ErrSkipped marks a file that exists but was not read: not a regular
// file, resolving outside the workspace, or changed while being opened.
// Callers report it as a notice; fs.ErrNotExist is the quiet "absent".
var ErrSkipped = errors.New("skipped")

// File is what Read took from a file.
type File struct {
	// Data is the file's content, at most the cap asked for.
	Data []byte
	// Cut says the file was larger than the cap and Data is its start.
	Cut bool
	// Size is the file's size as the open file reported it.
	Size int64
}

// Read reads path, which must be a regular file resolving inside root
// (symlinks evaluated); an empty root turns the containment check off for
// user-level files such as ~/.claude/agents, but the other checks stay.
// At most limit bytes are read; a larger file comes back Cut. A missing
// file (or a dangling link) is an error matching fs.ErrNotExist; a file
// refused for what it is matches ErrSkipped and says why.
func Read(root, path string, limit int64) (File, error) {
	// Most of the files baton looks for are absent. One stat, which
	// follows links as resolve's walk does, says so without that walk's
	// look at every folder on the way; a dangling link is absent to both.
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return File{}, err
	}
	resolved, err := resolve(root, path)
	if err != nil {
		return File{}, err
	}
	// Look before opening: opening some devices has effects of its own.
	info, err := os.Stat(resolved)
	if err != nil {
		return File{}, err
	}
	if !info.Mode().IsRegular() {
		return File{}, skipped(path, describe(info.Mode()))
	}
	f, err := os.OpenFile(resolved, openFlags, 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return File{}, err
		}
		return File{}, skipped(path, "could not be opened: "+unwrapPath(err).Error())
	}
	defer f.Close()
	// Check the file actually opened: it may have been swapped for a
	// FIFO or a device between the look and the open.
	info, err = f.Stat()
	if err != nil {
		return File{}, fmt.Errorf("read %s: %w", path, err)
	}
	if !info.Mode().IsRegular() {
		return File{}, skipped(path, describe(info.Mode()))
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return File{}, fmt.Errorf("read %s: %w", path, unwrapPath(err))
	}
	out := File{Data: data, Size: info.Size()}
	if int64(len(data)) > limit {
		out.Data, out.Cut = data[:limit], true
	}
	return out, nil
}

// resolve evaluates path's symlinks and, with a root, checks that the
// result lies inside the root's real path.
func resolve(root, path string) (string, error) {
	resolved, err := filepath.EvalSymlinks(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		return "", skipped(path, "could not be resolved: "+unwrapPath(err).Error())
	}
	if root == "" || within(filepath.Clean(root), resolved) {
		// A resolved path has no link in it: every folder on its way was
		// looked at and is a folder. So when it lies under root as
		// written, root is already real, and resolving root again would
		// walk the same folders once more.
		return resolved, nil
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", fmt.Errorf("resolve workspace %s: %w", root, err)
	}
	rel, err := filepath.Rel(realRoot, resolved)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", skipped(path, "resolves outside the workspace (to "+resolved+")")
	}
	return resolved, nil
}

// within reports whether the absolute, clean path dir holds path, both
// compared as written.
func within(dir, path string) bool {
	if !filepath.IsAbs(dir) {
		return false
	}
	if dir == string(filepath.Separator) {
		return filepath.IsAbs(path)
	}
	return strings.HasPrefix(path, dir) && (len(path) == len(dir) || path[len(dir)] == filepath.Separator)
}

// SkipError is a file refused for what it is; it matches ErrSkipped.
// Reason is worded to follow the file's name in a notice.
type SkipError struct {
	Path   string
	Reason string
}

// Error names the file and why it was refused, worded for a notice.
func (e *SkipError) Error() string { return "skipped " + e.Path + ": " + e.Reason }

// Is makes errors.Is(err, ErrSkipped) true.
func (e *SkipError) Is(target error) bool { return target == ErrSkipped }

// skipped is the error for a file refused for what it is.
func skipped(path, why string) error {
	return &SkipError{Path: path, Reason: why}
}

// describe names a non-regular file type for a notice.
func describe(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory, not a regular file"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO), not a regular file"
	case m&fs.ModeSocket != 0:
		return "a socket, not a regular file"
	case m&fs.ModeCharDevice != 0:
		return "a character device, not a regular file"
	case m&fs.ModeDevice != 0:
		return "a device, not a regular file"
	default:
		return "not a regular file"
	}
}

// unwrapPath drops the path an fs error repeats, since the message
// already names the file.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
