package process

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"syscall"

	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// Launcher starts a child's baton process and connects its standard
// streams: on this machine (Exec, the default) or elsewhere (a
// container), with the same protocol on the streams.
type Launcher interface {
	// Launch starts the process for job with args after the baton
	// binary (the hidden subcommand and the child's id); what the
	// process writes to its standard error goes to stderr.
	Launch(ctx context.Context, job child.Job, args []string, stderr io.Writer) (Proc, error)
}

// Proc is a launched child process.
type Proc interface {
	// Stdin is the process's standard input, Stdout its output.
	Stdin() io.WriteCloser
	Stdout() io.Reader
	// Kill ends the process now.
	Kill()
	// Wait waits for the process to end and releases what it held; its
	// error says how it ended when that was not well.
	Wait() error
}

// Relayed is a Proc whose process reaches the model endpoint only
// through a Unix socket baton relays: EndpointSocket is that socket's
// path where the process runs.
type Relayed interface {
	EndpointSocket() string
}

// Exec launches children as processes of this machine: the baton binary
// of Command (empty: this program again).
type Exec struct {
	Command []string
}

// Launch implements Launcher.
func (e Exec) Launch(_ context.Context, job child.Job, args []string, stderr io.Writer) (Proc, error) {
	return e.launch(job.Spec.Workspace, args, procAttr(outlives(job)), stderr)
}

// launch starts the baton binary with args in the folder dir.
func (e Exec) launch(dir string, args []string, attr *syscall.SysProcAttr, stderr io.Writer) (*execProc, error) {
	command := e.Command
	if len(command) == 0 {
		exe, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("find baton's binary: %w", err)
		}
		command = []string{exe}
	}
	cmd := exec.Command(command[0], append(slices.Clone(command[1:]), args...)...)
	// The environment is baton's without its secrets: the key travels
	// in the spec alone.
	cmd.Env = tools.WithoutSecrets(os.Environ())
	cmd.Dir = dir
	cmd.SysProcAttr = attr
	cmd.Stderr = stderr
	cmd.WaitDelay = abortGrace
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("start a child process: %w", err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("start a child process: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start a child process: %w", err)
	}
	return &execProc{cmd: cmd, in: in, out: out}, nil
}

// execProc is a child process of this machine.
type execProc struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out io.ReadCloser
}

func (p *execProc) Stdin() io.WriteCloser { return p.in }
func (p *execProc) Stdout() io.Reader     { return p.out }
func (p *execProc) Kill()                 { _ = p.cmd.Process.Kill() }
func (p *execProc) Wait() error           { return p.cmd.Wait() }

// Pid implements loose.
func (p *execProc) Pid() int { return p.cmd.Process.Pid }

// LetLoose implements loose: whoever adopts the process reaps it.
func (p *execProc) LetLoose() {
	_ = p.in.Close()
	_ = p.out.Close()
	_ = p.cmd.Process.Release()
}
