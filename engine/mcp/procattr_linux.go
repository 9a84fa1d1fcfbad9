package mcp

import "syscall"

// serverProcAttr puts a server in its own process group, so it is killed
// with its children, and asks the kernel to kill it when baton dies
// without a chance to clean up (SIGKILL, a closed terminal).
func serverProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
