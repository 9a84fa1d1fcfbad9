package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
)

// ptyRun is baton started as a real process on a pseudo-terminal.
type ptyRun struct {
	cmd  *exec.Cmd
	tty  *os.File
	home string

	mu     sync.Mutex
	out    bytes.Buffer
	seen   chan struct{} // signalled on every read
	closed chan struct{} // closed when the terminal has nothing more
}

// startTUI runs the TUI of the test binary in a fresh workspace on a pty,
// talking to srv, in yolo mode so a delegation starts without a card.
func startTUI(t *testing.T, srvURL string) *ptyRun {
	t.Helper()
	return startTUIIn(t, srvURL, t.TempDir(), t.TempDir())
}

// startTUIIn is startTUI in the workspace ws with home as HOME, with
// args after baton's own (--continue, say).
func startTUIIn(t *testing.T, srvURL, ws, home string, args ...string) *ptyRun {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, "-test.run=^$")
	cmd.Dir = ws
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_STATE_HOME=", "TERM=xterm-256color",
		"OPENAI_BASE_URL="+srvURL, "OPENAI_API_KEY=sk-test-0123456789",
		childArgsEnv+"="+strings.Join(append([]string{"--yolo", "--theme", "dark"}, args...), "\x1f"))
	return runOnPty(t, cmd, home)
}

// runOnPty starts cmd on a new 100×30 pseudo-terminal, as the leader of
// a session of its own, and keeps what it writes.
func runOnPty(t *testing.T, cmd *exec.Cmd, home string) *ptyRun {
	t.Helper()
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 30, Cols: 100})
	if err != nil {
		t.Fatal(err)
	}
	r := &ptyRun{cmd: cmd, tty: tty, home: home, seen: make(chan struct{}, 1), closed: make(chan struct{})}
	// This goroutine ends when the process has exited and the pty reads
	// fail (EIO on Linux).
	go func() {
		defer close(r.closed)
		buf := make([]byte, 4096)
		for {
			n, err := tty.Read(buf)
			answerQueries(tty, buf[:n])
			r.mu.Lock()
			r.out.Write(buf[:n])
			r.mu.Unlock()
			select {
			case r.seen <- struct{}{}:
			default:
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-r.closed
		_ = tty.Close()
	})
	return r
}

// answerQueries answers what a terminal is asked at start-up (background
// colour, cursor position) as a real one would; unanswered, each query
// waits out a timeout of seconds.
func answerQueries(tty io.Writer, chunk []byte) {
	if bytes.Contains(chunk, []byte("\x1b]11;?")) {
		_, _ = io.WriteString(tty, "\x1b]11;rgb:0000/0000/0000\x1b\\")
	}
	if bytes.Contains(chunk, []byte("\x1b[6n")) {
		_, _ = io.WriteString(tty, "\x1b[1;1R")
	}
}

// output is everything the process wrote to the terminal so far.
func (r *ptyRun) output() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.out.String()
}

// waitFor waits until the output holds s; it fails the test if the
// process ends first or nothing comes for a long while.
func (r *ptyRun) waitFor(t *testing.T, s string) {
	t.Helper()
	for !strings.Contains(r.output(), s) {
		select {
		case <-r.seen:
		case <-r.closed:
			t.Fatalf("baton ended before writing %q; output:\n%q", s, r.output())
		case <-time.After(30 * time.Second):
			t.Fatalf("baton never wrote %q; output:\n%q", s, r.output())
		}
	}
}

// wait waits for the process to end and returns its exit code. The bound
// only keeps a broken build from hanging CI: a deadlock fails here.
func (r *ptyRun) wait(t *testing.T) int {
	t.Helper()
	exited := make(chan error, 1)
	go func() { exited <- r.cmd.Wait() }()
	select {
	case err := <-exited:
		<-r.closed
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	case <-time.After(20 * time.Second):
		_ = r.cmd.Process.Kill()
		<-exited
		t.Fatalf("baton did not exit after the signal (deadlock); output tail:\n%q", tail(r.output(), 300))
		return -1
	}
}

// tail is the last n bytes of s.
func tail(s string, n int) string {
	return s[max(len(s)-n, 0):]
}
