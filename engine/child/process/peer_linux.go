package process

import (
	"fmt"
	"net"
	"os"
	"syscall"
)

// peerOf is who is at the other end of a Unix socket, as the kernel says
// (SO_PEERCRED): an abstract socket has no permissions, so any user of
// the machine can listen on a name or connect to it, and its name is
// public in /proc/net/unix.
func peerOf(nc net.Conn) (pid, uid int, err error) {
	uc, ok := nc.(*net.UnixConn)
	if !ok {
		return 0, 0, fmt.Errorf("%T is not a Unix socket", nc)
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return 0, 0, err
	}
	var cred *syscall.Ucred
	var credErr error
	if err := raw.Control(func(fd uintptr) {
		cred, credErr = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	}); err != nil {
		return 0, 0, err
	}
	if credErr != nil {
		return 0, 0, credErr
	}
	return int(cred.Pid), int(cred.Uid), nil
}

// peerIsOurs says whether the other end of nc runs as this user and,
// when pid is not 0, is that process.
func peerIsOurs(nc net.Conn, pid int) error {
	got, uid, err := peerOf(nc)
	if err != nil {
		return fmt.Errorf("who listens: %w", err)
	}
	if uid != os.Getuid() {
		return fmt.Errorf("the socket is held by user %d, not this one", uid)
	}
	if pid != 0 && got != pid {
		return fmt.Errorf("the socket is held by process %d, not the child (%d)", got, pid)
	}
	return nil
}
