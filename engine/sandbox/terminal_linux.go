package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// terminalArg starts the stage a terminal baton does not own runs.
const terminalArg = "__baton_sandbox_terminal"

// TerminalCommand is the program and arguments that run script under p
// in a terminal baton does not own, an editor's: baton's own binary as a
// small supervisor that drops the environment variables named in unset
// (the editor's environment may hold baton's key), confines the shell as
// Run does and, when the shell ends or the terminal is killed, kills
// every process the command left behind. Started by the editor, it has no
// PID namespace of its own: the command sees other processes.
func TerminalCommand(p Policy, script string, unset []string) (string, []string, error) {
	if !launcherReady.Load() {
		return "", nil, ErrNotInstalled
	}
	exe, err := os.Executable()
	if err != nil {
		return "", nil, fmt.Errorf("sandbox: locate baton: %w", err)
	}
	wanted := p.Mode != Off && p.Mode != ""
	line, err := json.Marshal(spec{Policy: p, Sandboxed: wanted && Available(), Shell: shellPath(), Script: script})
	if err != nil {
		return "", nil, fmt.Errorf("sandbox: encode launch spec: %w", err)
	}
	return exe, []string{terminalArg, strings.Join(unset, ","), string(line)}, nil
}

// superviseTerminal is the terminal's first stage: a subreaper that
// starts the restricted shell, waits for it or for the terminal's end
// (SIGTERM, SIGINT, SIGHUP), kills what is left below it and exits with
// the shell's status.
func superviseTerminal(args []string) int {
	if len(args) != 2 {
		return fail(errors.New("terminal: expected the names to unset and one launch spec"))
	}
	for _, name := range strings.Split(args[0], ",") {
		if name != "" {
			_ = os.Unsetenv(name)
		}
	}
	ended := make(chan os.Signal, 1)
	signal.Notify(ended, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return fail(fmt.Errorf("become subreaper: %w", err))
	}
	pid, err := startRestricted([]byte(args[1]), false)
	if err != nil {
		return fail(err)
	}
	reaped := make(chan reapedProc)
	go reapAll(reaped)
	stop := make(chan struct{})
	// Ends with the process: it exits as soon as the shell is done.
	go func() {
		<-ended
		close(stop)
	}()
	status, cancelled := waitShell(pid, reaped, stop)
	killDescendants(reaped)
	switch {
	case cancelled:
		return 128 + int(syscall.SIGTERM)
	case status.Signaled():
		return 128 + int(status.Signal())
	}
	return status.ExitStatus()
}
