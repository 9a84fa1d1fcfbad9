package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"sync"
	"syscall"
	"time"

	"github.com/creack/pty"
)

// screen is a TUI run's terminal: what the program wrote, kept whole so a
// step can wait for text to appear after a moment it chose, and the
// answers to the start-up queries a real terminal gives.
type screen struct {
	f       *os.File
	started time.Time // when the program was started

	mu  sync.Mutex
	out []byte
	// stamps say when each read ended: stamps[i] came with out up to
	// ends[i].
	ends    []int
	stamps  []time.Time
	changed chan struct{} // closed and replaced on every write
	done    bool
}

// newScreen starts reading f until it ends.
func newScreen(f *os.File, started time.Time) *screen {
	s := &screen{f: f, started: started, changed: make(chan struct{})}
	go s.read()
	return s
}

// read keeps the program's output and answers the background-colour (OSC
// 11) and cursor-position (DSR) queries, so start-up takes the path it
// takes in a real terminal. The terminal must be read or the program
// blocks on its writes.
func (s *screen) read() {
	buf := make([]byte, 64<<10)
	for {
		n, err := s.f.Read(buf)
		chunk := buf[:n]
		if bytes.Contains(chunk, []byte("\x1b]11;?")) {
			_, _ = io.WriteString(s.f, "\x1b]11;rgb:0000/0000/0000\x1b\\")
		}
		if bytes.Contains(chunk, []byte("\x1b[6n")) {
			_, _ = io.WriteString(s.f, "\x1b[1;1R")
		}
		now := time.Now()
		s.mu.Lock()
		s.out = append(s.out, chunk...)
		s.ends, s.stamps = append(s.ends, len(s.out)), append(s.stamps, now)
		close(s.changed)
		s.changed = make(chan struct{})
		s.done = err != nil
		s.mu.Unlock()
		if err != nil {
			return
		}
	}
}

// tail is the last n bytes of the output, for an error message.
func (s *screen) tail(n int) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return string(s.out[max(0, len(s.out)-n):])
}

// mark is where the output stands now.
func (s *screen) mark() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.out)
}

// waitFor waits until text appears in the output after offset from, and
// returns when the read that completed it came.
func (s *screen) waitFor(text string, from int, timeout time.Duration) (time.Time, error) {
	deadline := time.After(timeout)
	for {
		s.mu.Lock()
		from = min(from, len(s.out))
		at := bytes.Index(s.out[from:], []byte(text))
		var seen time.Time
		if at >= 0 {
			end := from + at + len(text)
			i, _ := slices.BinarySearch(s.ends, end)
			seen = s.stamps[i]
		}
		changed, done := s.changed, s.done
		s.mu.Unlock()
		if at >= 0 {
			return seen, nil
		}
		if done {
			return time.Time{}, fmt.Errorf("the program ended before %q was drawn", text)
		}
		select {
		case <-changed:
		case <-deadline:
			return time.Time{}, fmt.Errorf("%q was not drawn within %s", text, timeout)
		}
	}
}

// typeKeys types text a key at a time, as a person does: a burst reads
// as a paste.
func (s *screen) typeKeys(text string) error {
	for _, key := range text {
		if _, err := io.WriteString(s.f, string(key)); err != nil {
			return fmt.Errorf("type %q: %w", text, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return nil
}

// tuiStep is what a TUI case does between the first frame and quitting;
// it may return a figure of its own (negative: none).
type tuiStep func(sc *screen) (time.Duration, error)

// tuiRun runs one TUI session in a 120×40 pseudo-terminal: started, left
// to draw its first frame, driven by step, left settle more, and quit
// with ctrl+c twice. It measures the whole process tree, start to exit.
func tuiRun(cmd *exec.Cmd, launcher string, step tuiStep, settle time.Duration) (sample, error) {
	report, err := launched(cmd, launcher)
	if err != nil {
		return sample{}, err
	}
	started := time.Now()
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: 120, Rows: 40})
	if err != nil {
		return sample{}, fmt.Errorf("start in a pty: %w", err)
	}
	defer f.Close()
	sc := newScreen(f, started)
	kill := func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	// The input line's hint (its first letter is under the cursor) is in the first frame.
	if _, err := sc.waitFor("baton anything", 0, 20*time.Second); err != nil {
		kill()
		_ = cmd.Wait()
		return sample{}, fmt.Errorf("first frame: %w; the screen's last bytes: %q", err, sc.tail(600))
	}
	extra := time.Duration(-1)
	if step != nil {
		if extra, err = step(sc); err != nil {
			kill()
			_ = cmd.Wait()
			return sample{}, err
		}
	}
	time.Sleep(settle)
	for range 2 {
		_, _ = f.Write([]byte{3}) // ctrl+c
		time.Sleep(100 * time.Millisecond)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case <-exited:
	case <-time.After(10 * time.Second):
		kill()
		<-exited
		return sample{}, fmt.Errorf("the TUI did not quit on ctrl+c twice")
	}
	rep, err := report()
	if err != nil {
		return sample{}, err
	}
	return sample{wall: rep.wall, cpu: rep.cpu, rss: rep.rss, ttfb: -1, extra: extra, childRSS: -1}, nil
}

// prompt types text and Enter, then waits until the server has finished
// answers more main-agent answers in all.
func prompt(text string, answers int, answered func() int) tuiStep {
	return func(sc *screen) (time.Duration, error) {
		if err := sc.typeKeys(text + "\r"); err != nil {
			return -1, err
		}
		return -1, waitUntil(func() bool { return answered() >= answers }, 120*time.Second, "the turn did not end")
	}
}

// waitUntil polls cond until it holds or timeout passes.
func waitUntil(cond func() bool, timeout time.Duration, what string) error {
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			return fmt.Errorf("%s within %s", what, timeout)
		}
		time.Sleep(10 * time.Millisecond)
	}
	return nil
}
