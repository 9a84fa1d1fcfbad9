//go:build linux

package ui

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/term"
	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// ptyScreen is what the UI wrote to a pseudo-terminal, as the person's
// terminal emulator reads it.
type ptyScreen struct {
	mu      sync.Mutex
	written strings.Builder
	changed chan struct{} // closed and replaced on every write
}

// read copies from the terminal's master side until it is closed.
func (s *ptyScreen) read(master *os.File, done chan<- struct{}) {
	defer close(done)
	buf := make([]byte, 4096)
	for {
		n, err := master.Read(buf)
		s.mu.Lock()
		s.written.Write(buf[:n])
		close(s.changed)
		s.changed = make(chan struct{})
		s.mu.Unlock()
		if err != nil {
			return
		}
	}
}

// waitFor blocks until the terminal has been sent want (escape sequences
// included when raw, else in the text it shows).
func (s *ptyScreen) waitFor(t *testing.T, want string, raw bool) {
	t.Helper()
	for {
		s.mu.Lock()
		got, changed := s.written.String(), s.changed
		s.mu.Unlock()
		if !raw {
			got = ansi.Strip(got)
		}
		if strings.Contains(got, want) {
			return
		}
		select {
		case <-changed:
		case <-t.Context().Done():
			t.Fatalf("the terminal was never sent %q", want)
		}
	}
}

// echoes says whether the terminal echoes keys, as it does out of raw
// mode.
func echoes(t *testing.T, f *os.File) bool {
	t.Helper()
	st, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	return st.Lflag&unix.ECHO != 0
}

// On a real terminal the UI takes the keyboard out of line mode, draws
// at the terminal's size in the alternate screen, and copies through
// OSC 52; Restore, called from another goroutine while the UI runs (a
// second signal), leaves the alternate screen and gives the keyboard its
// modes back at once; once the UI has returned, Restore writes nothing.
func TestRunOnATerminalIsGivenBack(t *testing.T) {
	master, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	if err := pty.Setsize(master, &pty.Winsize{Rows: 30, Cols: 100}); err != nil {
		t.Fatal(err)
	}
	if in, closeIn := keyboard(tty); in != tty {
		t.Fatal("a terminal on stdin is not where keys are read")
	} else {
		closeIn()
	}
	screen := &ptyScreen{changed: make(chan struct{})}
	readDone := make(chan struct{})
	go screen.read(master, readDone)
	// The master's reads block in the kernel: closing the terminal's
	// side ends them (EIO), then the master is closed.
	t.Cleanup(func() { _ = tty.Close(); <-readDone; _ = master.Close() })
	if !echoes(t, tty) {
		t.Fatal("a fresh terminal does not echo")
	}

	terminal := NewTerminal(tty, tty)
	ended := make(chan error, 1)
	session := newFakeSession()
	go func() {
		ended <- run(context.Background(), session, Options{Theme: "dark", Terminal: terminal}, tty, tty)
	}()
	screen.waitFor(t, "Ask baton anything", false)
	screen.waitFor(t, "\x1b[?1049h", true)
	if echoes(t, tty) {
		t.Error("the keyboard echoes while the UI runs")
	}
	if err := terminal.Copy("hi"); err != nil {
		t.Fatal(err)
	}
	screen.waitFor(t, "\x1b]52;c;aGk=\x07", true)

	// Keys come from the terminal, one by one.
	if _, err := master.WriteString("\x03"); err != nil {
		t.Fatal(err)
	}
	screen.waitFor(t, "press ctrl+c again to quit", false)

	terminal.Restore()
	screen.waitFor(t, "\x1b[?1049l", true)
	if !echoes(t, tty) {
		t.Error("Restore left the keyboard in raw mode")
	}
	// The UI is still running; the keyboard is made raw again (as by
	// the program of whatever signal called Restore) for the second
	// ctrl+c to reach it and end it.
	if _, err := term.MakeRaw(tty.Fd()); err != nil {
		t.Fatal(err)
	}
	if _, err := master.WriteString("\x03"); err != nil {
		t.Fatal(err)
	}
	if err := <-ended; err != nil {
		t.Fatalf("run: %v", err)
	}
	close(session.events) // the session ends, and the UI's wait for its events with it
	// Everything the UI wrote is read once a mark written after it is.
	if _, err := tty.WriteString("MARK"); err != nil {
		t.Fatal(err)
	}
	screen.waitFor(t, "MARK", true)
	screen.mu.Lock()
	before := screen.written.Len()
	screen.mu.Unlock()
	terminal.Restore()
	if err := terminal.Copy(""); err != nil {
		t.Fatal(err)
	}
	screen.waitFor(t, "\x1b]52;c;\x07", true)
	screen.mu.Lock()
	after := screen.written.String()[before:]
	screen.mu.Unlock()
	if after != "\x1b]52;c;\x07" {
		t.Errorf("Restore after the UI returned wrote %q", after)
	}
	var none *Terminal
	if err := none.Copy("hi"); err == nil || err.Error() != "no terminal to copy through" {
		t.Errorf("copy without a terminal: %v", err)
	}
}
