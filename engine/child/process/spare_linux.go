package process

import (
	"fmt"
	"os"
	"path/filepath"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// exited reports whether the child process pid has ended, leaving it to
// be reaped by whoever waits for it (WNOWAIT). Without a change to
// report, waitid leaves the zeroed info as it is.
func exited(pid int) bool {
	var info unix.Siginfo
	err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOHANG|unix.WNOWAIT, nil)
	return err != nil || info.Signo != 0
}

// waiting reports whether f, a pipe, holds input not yet read (TIOCINQ
// is FIONREAD on Linux). The descriptor is reached without Fd, which
// would make it blocking.
func waiting(f *os.File) bool {
	raw, err := f.SyscallConn()
	if err != nil {
		return false
	}
	n := 0
	_ = raw.Control(func(fd uintptr) { n, err = unix.IoctlGetInt(int(fd), unix.TIOCINQ) })
	return err == nil && n > 0
}

// quietFor reports whether f, a pipe, stays without input (and open at
// its other end) for d.
func quietFor(f *os.File, d time.Duration) bool {
	raw, err := f.SyscallConn()
	if err != nil {
		return false
	}
	quiet := false
	end := time.Now().Add(d)
	_ = raw.Control(func(fd uintptr) {
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		for {
			// A signal cuts the wait short; it goes on to the same end.
			n, err := unix.Poll(fds, int(max(time.Until(end), 0).Milliseconds()))
			if err == unix.EINTR {
				continue
			}
			quiet = err == nil && n == 0
			return
		}
	})
	return quiet
}

// adopt readies a spare for the child whose spec came, as a process
// started cold for that child would be: in its workspace, and for a child
// that outlives baton, without the death signal and with its standard
// error in its Home (where baton reads it, and no pipe of baton's holds
// it up).
func adopt(sp *spec) error {
	takeName(string(sp.Meta.Agent))
	if err := os.Chdir(sp.Workspace); err != nil {
		return fmt.Errorf("enter the workspace: %w", err)
	}
	if sp.Home == "" {
		return nil
	}
	if err := unix.Prctl(unix.PR_SET_PDEATHSIG, 0, 0, 0, 0); err != nil {
		return fmt.Errorf("outlive baton: %w", err)
	}
	f, err := os.OpenFile(filepath.Join(sp.Home, stderrName), os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return fmt.Errorf("outlive baton: %w", err)
	}
	defer f.Close()
	if err := unix.Dup3(int(f.Fd()), 2, 0); err != nil {
		return fmt.Errorf("outlive baton: %w", err)
	}
	return nil
}

// takeName gives the process its child's id as its last argument, in
// place of the spare's name, so a process list and killFound see the
// child as they see one started cold (baton __child <id>). Go's
// arguments are the very memory the kernel shows them from, which is
// overwritten in place, the rest cleared; an id longer than the spare's
// name (see spareName) leaves the name as it is.
func takeName(id string) {
	last := os.Args[len(os.Args)-1]
	if len(id) > len(last) {
		return
	}
	b := unsafe.Slice(unsafe.StringData(last), len(last))
	clear(b[copy(b, id):])
}
