package tools

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// keptModeBits are the mode bits a rewritten file keeps from the old one.
const keptModeBits = fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky

// writeAtomic replaces path's content with data so that a crash at any
// instant leaves either the old file or the new one, never a truncated
// mix: the bytes go to a temporary file in the same folder, which is
// synced and then renamed over path. An existing file keeps its mode and,
// where allowed, its owner; a hard link to it keeps the old content,
// since the name is replaced rather than the shared inode written through.
// path must already be resolved (no symlink in its last element), so the
// rename replaces the file the workspace check approved.
func writeAtomic(path string, data []byte) (err error) {
	dir, base := filepath.Split(path)
	old, statErr := os.Lstat(path)
	if statErr != nil && !errors.Is(statErr, fs.ErrNotExist) {
		return statErr
	}
	tmp, err := createTemp(dir, base)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	if statErr == nil {
		if err = keepMode(tmp, old); err != nil {
			return err
		}
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	return syncDir(dir)
}

// createTemp makes a new file next to base that nobody else can be
// writing: O_EXCL on a random name. A new file's mode is 0644 less the
// umask, as os.WriteFile gives.
func createTemp(dir, base string) (*os.File, error) {
	for range 8 {
		var b [6]byte
		if _, err := rand.Read(b[:]); err != nil {
			return nil, fmt.Errorf("temporary name: %w", err)
		}
		name := filepath.Join(dir, "."+base+".baton-"+hex.EncodeToString(b[:])+".tmp")
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, err
	}
	return nil, errors.New("no free temporary name")
}

// keepMode gives the new file the old one's mode bits and, best effort,
// its owner and group (only root may give a file away).
func keepMode(tmp *os.File, old fs.FileInfo) error {
	if st, ok := old.Sys().(*syscall.Stat_t); ok {
		_ = tmp.Chown(int(st.Uid), int(st.Gid))
	}
	return tmp.Chmod(old.Mode() & keptModeBits)
}

// syncDir makes the rename itself durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) {
		return err
	}
	return nil
}
