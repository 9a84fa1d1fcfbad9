package sandbox

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// killGrace is how long a cancelled supervisor has to kill its command
// before baton kills the supervisor and sweeps what it left.
const killGrace = 5 * time.Second

// markerVar names the variable that tags a run's processes, so baton can
// find them if their supervisor dies before cleaning up.
const markerVar = "BATON_SANDBOX_RUN"

// Run runs script with the shell in dir under p, with env and the output
// written to out, and returns what exec.Cmd.Wait returns for it. The
// command gets its own session, no terminal and stdin from /dev/null;
// when it ends, or ctx does, every process it started is killed.
func Run(ctx context.Context, p Policy, script, dir string, env []string, out io.Writer) error {
	if !launcherReady.Load() {
		return ErrNotInstalled
	}
	id := make([]byte, 8)
	_, _ = rand.Read(id)
	marker := markerVar + "=" + hex.EncodeToString(id)
	line, err := json.Marshal(spec{Policy: p, Sandboxed: p.Mode != Off && p.Mode != "" && Available(), Shell: shellPath(), Script: script})
	if err != nil {
		return fmt.Errorf("sandbox: encode launch spec: %w", err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		return fmt.Errorf("sandbox: control pipe: %w", err)
	}
	defer w.Close()
	cmd := exec.CommandContext(ctx, "/proc/self/exe", superviseArg)
	cmd.Args[0] = "baton-sandbox"
	cmd.Dir, cmd.Env = dir, append(env, marker)
	cmd.Stdout, cmd.Stderr = out, out
	cmd.ExtraFiles = []*os.File{r}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	// Closing the lifeline is the supervisor's signal to kill everything.
	cmd.Cancel = func() error { return w.Close() }
	cmd.WaitDelay = killGrace
	err = cmd.Start()
	_ = r.Close()
	if err != nil {
		return fmt.Errorf("sandbox: start: %w", err)
	}
	if _, err := w.Write(append(line, '\n')); err != nil && ctx.Err() == nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		sweep(marker)
		return fmt.Errorf("sandbox: send launch spec: %w", err)
	}
	err = cmd.Wait()
	if st, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && st.Signaled() {
		sweep(marker)
	}
	return err
}

// shellPath prefers bash, which models write for, and falls back to sh.
func shellPath() string {
	if p, err := exec.LookPath("bash"); err == nil {
		return p
	}
	return "/bin/sh"
}
