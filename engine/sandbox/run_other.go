//go:build !linux

package sandbox

import (
	"context"
	"io"
	"os/exec"
	"syscall"
	"time"
)

// Main does nothing where there is no sandbox to launch.
func Main() {}

// ABI is 0: Landlock is Linux's.
func ABI() int { return 0 }

// Available is false: only Linux has Landlock.
func Available() bool { return false }

// Unavailable says why commands cannot be sandboxed.
func Unavailable() string { return "Landlock needs Linux" }

func networkNote() string { return "" }

func (Policy) socketNote() string { return "" }

// NetworkIsolated is false: network namespaces are Linux's.
func NetworkIsolated() bool { return false }

// Isolated is false: PID namespaces are Linux's.
func Isolated() bool { return false }

// IsolationProblem says why commands see other processes.
func IsolationProblem() string { return "PID namespaces need Linux" }

// Run runs script unsandboxed in its own process group, killed whole
// when it ends or ctx does. A shell that ends other than with status 0 is
// an *ExitError.
func Run(ctx context.Context, _ Policy, script, dir string, env []string, out io.Writer) error {
	sh := "/bin/sh"
	if p, err := exec.LookPath("bash"); err == nil {
		sh = p
	}
	cmd := exec.CommandContext(ctx, sh, "-c", script)
	cmd.Dir, cmd.Env = dir, env
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 2 * time.Second
	if err := cmd.Start(); err != nil {
		return err
	}
	err := cmd.Wait()
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	if ee, ok := err.(*exec.ExitError); ok {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok {
			return &ExitError{Status: ws}
		}
	}
	return err
}

// Sweep does nothing where commands run without a supervisor: a command's
// process group dies with the run.
func Sweep(string) {}

// TagRuns does nothing where Sweep has nothing to find.
func TagRuns(string) {}
