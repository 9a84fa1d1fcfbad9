package tools

import (
	"errors"
	"io/fs"
	"os"
	"strconv"
	"sync"

	"golang.org/x/sys/unix"
)

// openUnnamed opens a new file in dir that has no name (O_TMPFILE): a
// process killed while writing it leaves nothing behind. Its mode is
// 0644 less the umask, as os.WriteFile gives. File systems without
// O_TMPFILE refuse, and the caller names its file instead.
func openUnnamed(dir string) (*os.File, error) {
	if !unnamedTemps || !procFDs() {
		return nil, errNoUnnamed
	}
	fd, err := unix.Open(dir, unix.O_TMPFILE|unix.O_WRONLY|unix.O_CLOEXEC, 0o644)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: dir, Err: err}
	}
	return os.NewFile(uintptr(fd), dir), nil
}

// errNoUnnamed says unnamed temporary files cannot be used here.
var errNoUnnamed = errors.New("no unnamed temporary files here")

// procFDs reports whether /proc/self/fd is there to name an unnamed file
// by (linkat with AT_EMPTY_PATH needs a capability baton does not have).
func procFDs() bool {
	procFDsOnce.Do(func() { procFDsValue = buildProcFDs() })
	return procFDsValue
}

// procFDsOnce and procFDsValue hold the table, built on first use
// (a zero sync.Once costs nothing at start; sync.OnceValue is init code).
var (
	procFDsOnce  sync.Once
	procFDsValue bool
)

// buildProcFDs builds the table.
func buildProcFDs() bool {
	_, err := os.Stat("/proc/self/fd")
	return err == nil
}

// linkTemp gives the unnamed file tmp a fresh temporary name in dir, to
// be renamed over the target; the name exists only until that rename.
func linkTemp(tmp *os.File, dir, base string) (string, error) {
	from := "/proc/self/fd/" + strconv.Itoa(int(tmp.Fd()))
	for range 8 {
		name, err := tempName(dir, base)
		if err != nil {
			return "", err
		}
		err = unix.Linkat(unix.AT_FDCWD, from, unix.AT_FDCWD, name, unix.AT_SYMLINK_FOLLOW)
		if errors.Is(err, unix.EEXIST) {
			continue
		}
		if err != nil {
			return "", &os.LinkError{Op: "link", Old: from, New: name, Err: err}
		}
		return name, nil
	}
	return "", errors.New("no free temporary name")
}
