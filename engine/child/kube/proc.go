package kube

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/worktree"
)

// stopGrace is how long baton-kube has, once told to stop, to delete
// the child's Job before it is killed.
const stopGrace = 30 * time.Second

// maxReportLine bounds one line from baton-kube: a result bundle is at
// most what a pod log line carries.
const maxReportLine = 64 << 20

// proc is a child's baton-kube: its input and output are the pod's.
type proc struct {
	job     child.Job
	repo    worktree.Repo
	ref     string
	base    string
	scratch string
	cmd     *exec.Cmd

	in  io.WriteCloser
	out *io.PipeReader
	// filtered is closed when baton-kube's output has been read to its
	// end; bundle is the result it carried.
	filtered chan struct{}
	bundle   []byte

	killMu sync.Mutex
	hard   *time.Timer
}

// start starts baton-kube and the reading of its output.
func (p *proc) start() error {
	in, err := p.cmd.StdinPipe()
	if err != nil {
		return err
	}
	raw, err := p.cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := p.cmd.Start(); err != nil {
		return err
	}
	out, w := io.Pipe()
	p.in, p.out, p.filtered = in, out, make(chan struct{})
	// Ends when baton-kube's output does (it exited), or when nobody
	// reads the protocol any more (the pipe is closed).
	go func() {
		defer close(p.filtered)
		w.CloseWithError(p.filter(raw, w))
	}()
	return nil
}

// filter passes the child protocol's lines on to w and acts on the
// reports meant for the runner.
func (p *proc) filter(r io.Reader, w io.Writer) error {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := readLine(br)
		if len(line) > 0 {
			if rep, ok := parseReport(line); ok {
				p.report(rep)
			} else if _, werr := w.Write(append(line, '\n')); werr != nil {
				return werr
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}

// report acts on one report.
func (p *proc) report(rep Report) {
	meta := p.job.Spec.Meta
	if rep.Where != "" {
		p.job.Link.Emit(event.AgentPlaced{Meta: meta, Where: rep.Where, Latency: rep.Latency})
	}
	if rep.Notice != "" {
		p.job.Link.Emit(event.Notice{Meta: meta, Text: rep.Notice})
	}
	if rep.Bundle != nil {
		p.bundle = rep.Bundle
	}
}

// readLine reads one line, bounded, without its newline.
func readLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		part, err := br.ReadSlice('\n')
		if len(line)+len(part) > maxReportLine {
			return nil, fmt.Errorf("a line from %s longer than %d MiB", BridgeName, maxReportLine>>20)
		}
		line = append(line, part...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimSuffix(line, []byte{'\n'}), err
	}
}

// Stdin implements process.Proc.
func (p *proc) Stdin() io.WriteCloser { return p.in }

// Stdout implements process.Proc.
func (p *proc) Stdout() io.Reader { return p.out }

// Kill implements process.Proc: baton-kube is told to stop, and deletes
// the child's Job (foreground propagation) before it exits; it is
// killed if it has not within stopGrace.
func (p *proc) Kill() {
	p.killMu.Lock()
	defer p.killMu.Unlock()
	if p.hard != nil || p.cmd.Process == nil {
		return
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	p.hard = time.AfterFunc(stopGrace, func() { _ = p.cmd.Process.Kill() })
}

// Wait implements process.Proc: it waits for baton-kube to exit, then
// writes a writer's result into its worktree, where it is reviewed.
func (p *proc) Wait() error {
	<-p.filtered
	err := p.cmd.Wait()
	p.killMu.Lock()
	if p.hard != nil {
		p.hard.Stop()
	}
	p.killMu.Unlock()
	if err != nil {
		err = fmt.Errorf("%s: %w", BridgeName, err)
	}
	if p.bundle != nil && p.job.Spec.Worktree != "" {
		err = errors.Join(err, p.apply())
	}
	return errors.Join(err, p.release())
}

// apply writes the result bundle's change into the worktree.
func (p *proc) apply() error {
	file := filepath.Join(p.scratch, "result.bundle")
	if err := os.WriteFile(file, p.bundle, 0o600); err != nil {
		return fmt.Errorf("keep the child's result: %w", err)
	}
	return p.repo.ApplyBundle(context.Background(), file, p.base)
}

// release drops what Launch made here: the bundle and its ref.
func (p *proc) release() error {
	p.repo.Forget(context.Background(), p.ref)
	return os.RemoveAll(p.scratch)
}
