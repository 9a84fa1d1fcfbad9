//go:build !linux

package process

import "syscall"

// procAttr starts a child process in a session of its own (no
// controlling terminal: it never touches the person's).
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true}
}
