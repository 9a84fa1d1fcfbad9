package tools

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/seed-e4e525a6/baton/engine/sandbox"
)

// Checked is how a command run to check a change ended.
type Checked struct {
	// Output is what it printed, stdout and stderr together, bounded by
	// the limits' OutputChars (start and end kept).
	Output string
	// Exit is its exit status (-1 when it did not exit: killed).
	Exit     int
	TimedOut bool
}

// Check runs script in ws exactly as run_command would (the same
// blocklist, the same sandbox policy and guards, every descendant killed
// when it ends), bounded by timeout, for a caller that needs the exit
// status rather than a tool result: a verify command.
func Check(ctx context.Context, ws *Workspace, lim Limits, box sandbox.Policy, script string, timeout time.Duration) (Checked, error) {
	if strings.TrimSpace(script) == "" {
		return Checked{}, errors.New("verify command is empty")
	}
	if err := CheckCommand(script); err != nil {
		return Checked{}, err
	}
	t := runCommand{ws: ws, lim: lim.withDefaults(), box: box}
	runCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	out := newCapture(t.lim.OutputChars)
	guard := box.Mode != sandbox.Off && box.Mode != "" && sandbox.Available()
	if guard {
		box = enterGuard(ws.Root(), box)
	}
	err := t.execute(runCtx, box, script, out)
	restored := ""
	if guard {
		restored = leaveGuard(ws.Root())
	}
	if ctx.Err() != nil {
		return Checked{}, ctx.Err()
	}
	res := Checked{Output: strings.TrimRight(out.String(), "\n")}
	if restored != "" {
		res.Output += "\n" + restored
	}
	var exitErr exitCoder
	switch {
	case runCtx.Err() != nil:
		res.Exit, res.TimedOut = -1, true
	case errors.As(err, &exitErr):
		res.Exit = exitErr.ExitCode()
	case err != nil && !errors.Is(err, exec.ErrWaitDelay):
		return Checked{}, fmt.Errorf("run %q: %w", script, err)
	}
	return res, nil
}
