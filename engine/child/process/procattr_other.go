//go:build !linux

package process

import "syscall"

// procAttr starts a child process in a session of its own (no
// controlling terminal: it never touches the person's). Children are
// detachable only on Linux.
func procAttr(bool) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true}
}
