package rawio

import (
	"strconv"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// writeNow writes what of p fits into fd without waiting, in the way
// given: a pwritev2 with RWF_NOWAIT at the file's own offset (-1), or a
// write(2) of a non-blocking description.
func writeNow(fd uintptr, how way, p []byte) (int, attempt) {
	writeSeen(p)
	for {
		var (
			n     uintptr
			errno syscall.Errno
		)
		if how == nonBlocking {
			n, _, errno = unix.RawSyscall(unix.SYS_WRITE, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
		} else {
			iov := unix.Iovec{Base: &p[0]}
			iov.SetLen(len(p))
			// The offset -1, as its low and high words: the file's own.
			const current = ^uintptr(0)
			n, _, errno = unix.RawSyscall6(unix.SYS_PWRITEV2, fd, uintptr(unsafe.Pointer(&iov)), 1, current, current, unix.RWF_NOWAIT)
		}
		switch errno {
		case 0:
			if n == 0 {
				return 0, failed
			}
			return int(n), wrote
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return 0, wouldWait
		case syscall.EOPNOTSUPP, syscall.ENOSYS, syscall.EINVAL:
			return 0, unsupported
		}
		return 0, failed
	}
}

// ownTerminal opens a description of its own of the terminal raw's
// descriptor is, for writing, non-blocking, without making it the
// controlling terminal; -1 when it is no terminal or cannot be opened (no
// /proc, a terminal held exclusive, one owned by another user). The new
// description is checked to be that very terminal: the same file, and
// the same terminal behind it. A path can name a device that opens a
// different terminal each time (/dev/ptmx, whose every open is a new
// pair: a master given as the file; /dev/tty, the opener's controlling
// terminal; /dev/tty0, the console in front), and bytes written there
// would reach nobody who reads the file.
func ownTerminal(raw syscall.RawConn) int {
	var (
		fd       = -1
		have     unix.Stat_t
		terminal uint32
	)
	_ = raw.Control(func(d uintptr) {
		if _, err := unix.IoctlGetTermios(int(d), unix.TCGETS); err != nil || unix.Fstat(int(d), &have) != nil {
			return
		}
		if dev, err := unix.IoctlGetUint32(int(d), unix.TIOCGDEV); err == nil {
			fd, terminal = int(d), dev
		}
	})
	if fd < 0 || have.Mode&unix.S_IFMT != unix.S_IFCHR {
		return -1
	}
	own, err := unix.Open("/proc/self/fd/"+strconv.Itoa(fd), unix.O_WRONLY|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1
	}
	var got unix.Stat_t
	if unix.Fstat(own, &got) != nil || got.Rdev != have.Rdev || got.Ino != have.Ino || got.Dev != have.Dev || !sameTerminal(own, terminal) {
		_ = unix.Close(own)
		return -1
	}
	return own
}

// sameTerminal reports whether the description fd reaches the terminal
// whose device number is terminal.
func sameTerminal(fd int, terminal uint32) bool {
	dev, err := unix.IoctlGetUint32(fd, unix.TIOCGDEV)
	return err == nil && dev == terminal
}

// closeFD closes a descriptor ownTerminal opened.
func closeFD(fd int) error { return unix.Close(fd) }
