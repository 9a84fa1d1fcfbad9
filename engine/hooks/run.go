package hooks

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// maxStreamBytes bounds what is kept of a hook's stdout and of its
// stderr; the rest is read and dropped, so a chatty hook never blocks.
const maxStreamBytes = 64 << 10

// waitDelay is how long a hook's pipes may stay open after it ended or
// was killed (a child it left behind holding them), before baton stops
// reading.
const waitDelay = 2 * time.Second

// ran is what running one hook produced.
type ran struct {
	exit     int // -1 when it did not exit by itself
	stdout   string
	stderr   string
	timedOut bool
	// stopped says the caller's context ended (the person interrupted):
	// not the hook's fault, and not reported.
	stopped bool
	err     error // it could not start, or was killed
	took    time.Duration
}

// shell is the interpreter of command hooks: bash where there is one, as
// Claude Code uses, else sh.
func shell() string {
	if path, err := exec.LookPath("bash"); err == nil {
		return path
	}
	return "/bin/sh"
}

// run runs h with input on stdin in dir, with env, until it exits or
// its timeout ends; a timed-out hook's whole process group is killed.
func run(ctx context.Context, h Hook, input []byte, dir string, env []string) ran {
	ctx, cancel := context.WithTimeout(ctx, h.timeout())
	defer cancel()
	var cmd *exec.Cmd
	if len(h.Args) > 0 {
		cmd = exec.CommandContext(ctx, h.Command, h.Args...)
	} else {
		cmd = exec.CommandContext(ctx, shell(), "-c", h.Command)
	}
	cmd.Dir, cmd.Env = dir, env
	cmd.Stdin = bytes.NewReader(input)
	stdout, stderr := &capped{max: maxStreamBytes}, &capped{max: maxStreamBytes}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.SysProcAttr = procAttr()
	cmd.Cancel = func() error { return killGroup(cmd) }
	cmd.WaitDelay = waitDelay
	start := time.Now()
	err := cmd.Run()
	out := ran{exit: -1, stdout: stdout.String(), stderr: stderr.String(), took: time.Since(start)}
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded):
		out.timedOut = true
		out.err = fmt.Errorf("timed out after %s; killed", h.timeout().Round(time.Millisecond))
	case ctx.Err() != nil:
		out.stopped = true
		out.err = errors.New("stopped: " + context.Cause(ctx).Error())
	case errors.As(err, &exit) && exit.Exited():
		out.exit = exit.ExitCode()
	case errors.Is(err, exec.ErrWaitDelay):
		out.exit = cmd.ProcessState.ExitCode() // it exited; something it started kept its output open
	case err != nil:
		out.err = err
	default:
		out.exit = 0
	}
	return out
}

// capped keeps the first max bytes written to it and counts the rest.
type capped struct {
	max     int
	buf     bytes.Buffer
	dropped int
}

// Write implements io.Writer; it never fails, so the hook is never
// blocked on a full pipe.
func (c *capped) Write(p []byte) (int, error) {
	room := c.max - c.buf.Len()
	if room >= len(p) {
		c.buf.Write(p)
		return len(p), nil
	}
	if room > 0 {
		c.buf.Write(p[:room])
	}
	c.dropped += len(p) - max(room, 0)
	return len(p), nil
}

// String is what was kept, marked when more was dropped.
func (c *capped) String() string {
	s := c.buf.String()
	if c.dropped > 0 {
		s += fmt.Sprintf("\n… [%d more bytes dropped]", c.dropped)
	}
	return strings.TrimRight(s, "\n")
}
