package sandbox

import (
	"strconv"
	"syscall"
)

// ExitError is what Run returns for a command whose shell did not exit
// with status 0. It carries the shell's own wait status, passed on by the
// supervisor: the init of a PID namespace cannot die by the shell's
// signal to mirror it, so the status travels by pipe instead.
type ExitError struct {
	Status syscall.WaitStatus
}

// Error reads like exec's: "exit status 3", "signal: terminated".
func (e *ExitError) Error() string {
	if e.Status.Signaled() {
		return "signal: " + e.Status.Signal().String()
	}
	return "exit status " + strconv.Itoa(e.Status.ExitStatus())
}

// ExitCode is the shell's exit status, or -1 when a signal ended it.
func (e *ExitError) ExitCode() int {
	if e.Status.Signaled() {
		return -1
	}
	return e.Status.ExitStatus()
}
