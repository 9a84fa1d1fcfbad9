package main

import (
	"bytes"
	"fmt"
	"io"
	"os/exec"
	"syscall"
	"time"

	"github.com/creack/pty"
)

// tuiRun is one TUI session in a pseudo-terminal: started, given a prompt
// (or none), left until the server's answer ended and then settle more,
// and quit with ctrl+c twice.
type tuiRun struct {
	cmd    *exec.Cmd
	prompt string
	// settle is how long to leave the program after the answer (or after
	// the start, without a prompt) before quitting.
	settle time.Duration
	// answered reports whether the server has finished the turn's last
	// answer.
	answered func() bool
}

// run measures the whole process, from start to exit.
func (t tuiRun) run() (sample, error) {
	start := time.Now()
	f, err := pty.StartWithSize(t.cmd, &pty.Winsize{Cols: 120, Rows: 40})
	if err != nil {
		return sample{}, fmt.Errorf("start in a pty: %w", err)
	}
	defer f.Close()
	drained := make(chan struct{})
	go func() {
		// The terminal must be read or the program blocks on its writes,
		// and it answers the start-up queries as a real terminal does.
		answerQueries(f)
		close(drained)
	}()
	time.Sleep(500 * time.Millisecond) // the first frame
	if t.prompt != "" {
		// Typed a key at a time, as a person does: a burst reads as a paste.
		for _, key := range t.prompt + "\r" {
			if _, err := io.WriteString(f, string(key)); err != nil {
				return sample{}, fmt.Errorf("type the prompt: %w", err)
			}
			time.Sleep(20 * time.Millisecond)
		}
		deadline := time.Now().Add(60 * time.Second)
		for !t.answered() {
			if time.Now().After(deadline) {
				_ = t.cmd.Process.Kill()
				return sample{}, fmt.Errorf("the TUI turn did not end within 60 s")
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	time.Sleep(t.settle)
	for range 2 {
		_, _ = f.Write([]byte{3}) // ctrl+c
		time.Sleep(100 * time.Millisecond)
	}
	exited := make(chan error, 1)
	go func() { exited <- t.cmd.Wait() }()
	select {
	case <-exited:
	case <-time.After(10 * time.Second):
		_ = t.cmd.Process.Kill()
		<-exited
		return sample{}, fmt.Errorf("the TUI did not quit on ctrl+c twice")
	}
	s := sample{wall: time.Since(start), ttfb: -1}
	if ru, ok := t.cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		s.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		s.rss = ru.Maxrss
	}
	return s, nil
}

// answerQueries reads the program's output to the end, answering the
// background-colour (OSC 11) and cursor-position (DSR) queries a terminal
// would, so start-up takes the path it takes in a real terminal.
func answerQueries(f io.ReadWriter) {
	buf := make([]byte, 64<<10)
	for {
		n, err := f.Read(buf)
		chunk := buf[:n]
		if bytes.Contains(chunk, []byte("\x1b]11;?")) {
			_, _ = io.WriteString(f, "\x1b]11;rgb:0000/0000/0000\x1b\\")
		}
		if bytes.Contains(chunk, []byte("\x1b[6n")) {
			_, _ = io.WriteString(f, "\x1b[1;1R")
		}
		if err != nil {
			return
		}
	}
}
