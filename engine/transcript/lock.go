package transcript

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// ErrInUse is wrapped by Lock's error when another process writes the
// session, so the caller can offer a new session instead.
var ErrInUse = errors.New("in use by another baton process")

// lockName is the lock file inside a session folder. The lock is an
// flock on it: the kernel releases it when the process dies, however it
// dies, so a crash never leaves a session locked.
const lockName = "lock"

// Lock claims the session for this process until Close, so two processes
// never interleave one transcript. It fails with ErrInUse (naming the
// holder's pid when it can) if another process holds it.
func (d *Dir) Lock() error {
	f, err := os.OpenFile(filepath.Join(d.path, lockName), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("lock session %s: %w", d.id, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		holder := readHolder(f)
		_ = f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return fmt.Errorf("session %s is %w%s", d.id, ErrInUse, holder)
		}
		return fmt.Errorf("lock session %s: %w", d.id, err)
	}
	// The pid is only for the message another process shows.
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	d.mu.Lock()
	d.lock = f
	d.mu.Unlock()
	return nil
}

// readHolder is " (pid N)" from a held lock file, or "".
func readHolder(f *os.File) string {
	buf := make([]byte, 32)
	n, _ := f.ReadAt(buf, 0)
	pid, err := strconv.Atoi(strings.TrimSpace(string(buf[:n])))
	if err != nil || pid <= 0 {
		return ""
	}
	return fmt.Sprintf(" (pid %d)", pid)
}

// locked reports whether another process holds the session folder's lock;
// Prune leaves such a session alone, however old it looks.
func locked(session string) bool {
	f, err := os.Open(filepath.Join(session, lockName))
	if err != nil {
		return false
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		return errors.Is(err, syscall.EWOULDBLOCK)
	}
	_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	return false
}
