//go:build unix

package hooks

import (
	"os/exec"
	"syscall"
)

// procAttr starts a hook in a session of its own: no controlling
// terminal to draw on under the TUI, and one process group to kill.
func procAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }

// killGroup kills the hook and everything it started.
func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}
