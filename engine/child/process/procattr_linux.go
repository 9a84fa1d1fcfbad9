package process

import "syscall"

// procAttr starts a child process in a session of its own (no
// controlling terminal: it never touches the person's, and the signals
// sent to baton's process group never reach it). One that is not
// detachable is killed if baton dies; a detachable one outlives it.
func procAttr(detachable bool) *syscall.SysProcAttr {
	if detachable {
		return &syscall.SysProcAttr{Setsid: true}
	}
	return &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
}
