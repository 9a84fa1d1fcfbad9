//go:build !linux

package mcp

import "syscall"

// serverProcAttr puts a server in its own process group, so it is killed
// with its children; only Linux can also tie its life to baton's.
func serverProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
