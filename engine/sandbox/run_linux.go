package sandbox

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
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
// written to out. The command gets its own session, no terminal and
// stdin from /dev/null, and, sandboxed where the kernel allows, its own
// PID namespace; when it ends, or ctx does, every process it started is
// killed. A shell that ends other than with status 0 is an *ExitError.
func Run(ctx context.Context, p Policy, script, dir string, env []string, out io.Writer) error {
	if !launcherReady.Load() {
		return ErrNotInstalled
	}
	return run(ctx, p, script, dir, env, out, Isolated())
}

// run is Run with commands isolated in namespaces of their own or not,
// as the kernel allows.
func run(ctx context.Context, p Policy, script, dir string, env []string, out io.Writer, canIsolate bool) error {
	id := make([]byte, 8)
	_, _ = rand.Read(id)
	marker := markerVar + "=" + runTag() + hex.EncodeToString(id)
	wanted := p.Mode != Off && p.Mode != ""
	sandboxed := wanted && Available()
	if sandboxed {
		p.prepareCaches()
		env = p.cacheEnv(env)
	}
	env = append(env, marker)
	launch := spec{Policy: p, Sandboxed: sandboxed, Shell: shellPath(), Script: script}
	isolate := wanted && canIsolate
	if isolate && sandboxed {
		launch.Sockets = p.socketMasks()
		launch.OwnNetwork = !p.Network && NetworkIsolated()
		// The supervisor mounts only over link-free paths.
		launch.Policy.Protected, launch.Policy.Pinned = realPaths(p.Protected), realPaths(p.Pinned)
	}
	line, err := json.Marshal(launch)
	if err != nil {
		return fmt.Errorf("sandbox: encode launch spec: %w", err)
	}
	sv, err := start(ctx, isolate, launch.OwnNetwork, dir, env, out)
	if err != nil && isolate {
		// The namespaces the probe made are refused now (a limit reached):
		// the command still runs, and its output says how; the supervisor
		// then filters the sockets it cannot cover.
		fmt.Fprintf(out, "baton sandbox: other processes visible: %v\n", err)
		launch.Sockets, launch.OwnNetwork = nil, false
		if line, err = json.Marshal(launch); err != nil {
			return fmt.Errorf("sandbox: encode launch spec: %w", err)
		}
		sv, err = start(ctx, false, false, dir, env, out)
	}
	if err != nil {
		return err
	}
	return sv.finish(ctx, line, marker)
}

// supervisor is a started first stage and baton's ends of its pipes.
type supervisor struct {
	cmd              *exec.Cmd
	lifeline, report *os.File
}

// start starts the supervisor, isolated or not; it has yet to receive
// the launch spec.
func start(ctx context.Context, isolate, ownNetwork bool, dir string, env []string, out io.Writer) (*supervisor, error) {
	ctlR, ctlW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("sandbox: control pipe: %w", err)
	}
	repR, repW, err := os.Pipe()
	if err != nil {
		_, _ = ctlR.Close(), ctlW.Close()
		return nil, fmt.Errorf("sandbox: report pipe: %w", err)
	}
	cmd := exec.CommandContext(ctx, "/proc/self/exe", superviseArg)
	cmd.Args[0] = "baton-sandbox"
	cmd.Dir, cmd.Env = dir, env
	cmd.Stdout, cmd.Stderr = out, out
	cmd.ExtraFiles = []*os.File{ctlR, repW}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if isolate {
		cmd.SysProcAttr = namespaceAttr(ownNetwork)
	}
	// Closing the lifeline is the supervisor's signal to kill everything.
	cmd.Cancel = func() error { return ctlW.Close() }
	cmd.WaitDelay = killGrace
	err = cmd.Start()
	_, _ = ctlR.Close(), repW.Close()
	if err != nil {
		_, _ = ctlW.Close(), repR.Close()
		return nil, fmt.Errorf("sandbox: start: %w", err)
	}
	return &supervisor{cmd: cmd, lifeline: ctlW, report: repR}, nil
}

// finish sends the launch spec, waits for the supervisor and returns the
// shell's outcome; a supervisor that died leaves its strays to sweep.
func (sv *supervisor) finish(ctx context.Context, line []byte, marker string) error {
	defer sv.lifeline.Close()
	defer sv.report.Close()
	if _, err := sv.lifeline.Write(append(line, '\n')); err != nil && ctx.Err() == nil {
		_ = sv.cmd.Process.Kill()
		_ = sv.cmd.Wait()
		sweep(marker)
		return fmt.Errorf("sandbox: send launch spec: %w", err)
	}
	err := sv.cmd.Wait()
	st, _ := sv.cmd.ProcessState.Sys().(syscall.WaitStatus)
	if st.Signaled() {
		sweep(marker)
	}
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		return err
	}
	data, _ := io.ReadAll(io.LimitReader(sv.report, 32))
	if n, perr := strconv.ParseUint(strings.TrimSpace(string(data)), 10, 32); perr == nil {
		st = syscall.WaitStatus(n)
	} else if exitErr == nil {
		return nil
	}
	if st == 0 {
		return nil
	}
	return &ExitError{Status: st}
}

// shellPath prefers bash, which models write for, and falls back to sh.
func shellPath() string {
	if p, err := exec.LookPath("bash"); err == nil {
		return p
	}
	return "/bin/sh"
}
