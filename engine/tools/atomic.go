package tools

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
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
//
// A crash must not litter the person's tree with temporary files either.
// Where the kernel allows (Linux's O_TMPFILE) the bytes go to a file with
// no name, which a crash simply frees; it is named only for the instant
// between link and rename. Elsewhere the temporary file is named from the
// start. Either way the writer holds an flock on it, and the next write
// of the same file removes the temporary files no live writer holds.
func writeAtomic(path string, data []byte) (err error) {
	dir, base := filepath.Split(path)
	old, statErr := os.Lstat(path)
	if statErr != nil && !errors.Is(statErr, fs.ErrNotExist) {
		return statErr
	}
	sweepTemps(dir, base)
	tmp, name, err := openTemp(dir, base)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil && name != "" {
			_ = os.Remove(name)
		}
		_ = tmp.Close() // after the rename: the flock marks a live writer until then
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
	if name == "" {
		if name, err = linkTemp(tmp, dir, base); err != nil {
			return err
		}
	}
	if err = os.Rename(name, path); err != nil {
		return err
	}
	return syncDir(dir)
}

// openTemp opens the locked temporary file the new content is written
// to: unnamed where the kernel allows (name ""), else named next to base.
func openTemp(dir, base string) (*os.File, string, error) {
	tmp, err := openUnnamed(dir)
	name := ""
	if err != nil {
		if tmp, err = createTemp(dir, base); err != nil {
			return nil, "", err
		}
		name = tmp.Name()
	}
	if err := syscall.Flock(int(tmp.Fd()), syscall.LOCK_EX); err != nil {
		_ = tmp.Close()
		if name != "" {
			_ = os.Remove(name)
		}
		return nil, "", fmt.Errorf("lock temporary file: %w", err)
	}
	return tmp, name, nil
}

// unnamedTemps says whether to try unnamed temporary files first; the
// tests of the named fallback switch it off.
var unnamedTemps = true

// tempName is a fresh name for a temporary copy of base in dir.
func tempName(dir, base string) (string, error) {
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("temporary name: %w", err)
	}
	return filepath.Join(dir, tempPrefix(base)+hex.EncodeToString(b[:])+tempSuffix), nil
}

// tempPrefix and tempSuffix frame the name of base's temporary files:
// ".NAME.baton-XXXXXXXXXXXX.tmp".
func tempPrefix(base string) string { return "." + base + ".baton-" }

const tempSuffix = ".tmp"

// createTemp makes a new file next to base that nobody else can be
// writing: O_EXCL on a random name. A new file's mode is 0644 less the
// umask, as os.WriteFile gives.
func createTemp(dir, base string) (*os.File, error) {
	for range 8 {
		name, err := tempName(dir, base)
		if err != nil {
			return nil, err
		}
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, err
	}
	return nil, errors.New("no free temporary name")
}

// started is when this process began; a temporary file last written
// after it may be one another process is creating this instant, before
// it could take its lock.
var started = time.Now()

// stampSlack is how far before the instant of a write the kernel may
// stamp it: file times come from a clock that advances once per tick
// (up to 10 ms), so a file written just after started can carry an
// earlier time. A file stamped within it of started counts as written
// after it.
const stampSlack = 20 * time.Millisecond

// sweepTemps removes the temporary files of base in dir that a writer
// killed mid-write left behind: regular files, last written before this
// process started (by more than stampSlack), whose flock nobody holds (the kernel drops a dead
// writer's lock). Failing to remove one is no reason to fail the write.
func sweepTemps(dir, base string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	prefix := tempPrefix(base)
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || !strings.HasPrefix(name, prefix) || !strings.HasSuffix(name, tempSuffix) ||
			len(name) != len(prefix)+12+len(tempSuffix) {
			continue
		}
		removeAbandoned(filepath.Join(dir, name))
	}
}

// removeAbandoned removes the temporary file path when no live writer
// holds it.
func removeAbandoned(path string) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() || !info.ModTime().Before(started.Add(-stampSlack)) {
		return
	}
	if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		return // a live writer holds it
	}
	_ = os.Remove(path)
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
