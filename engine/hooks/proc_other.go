//go:build !unix

package hooks

import (
	"os/exec"
	"syscall"
)

// procAttr has nothing to set where there are no sessions.
func procAttr() *syscall.SysProcAttr { return nil }

// killGroup kills the hook itself.
func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return cmd.Process.Kill()
}
