package ui

import (
	"encoding/base64"
	"errors"
	"io"
	"os"
	"sync"

	"github.com/charmbracelet/x/term"

	"github.com/seed-e4e525a6/baton/ui/screen"
)

// Terminal is the screen the UI takes over. Its Restore gives the screen
// back from any goroutine while the UI still holds it, so a process that
// must exit at once (a second signal) never leaves the person in the
// alternate screen with a hidden cursor and a raw-mode keyboard.
type Terminal struct {
	out   io.Writer
	files []*os.File

	mu     sync.Mutex
	states map[*os.File]*term.State
	held   bool
}

// NewTerminal guards the terminal behind in and out (the process's stdin
// and stdout, which Bubble Tea uses by default).
func NewTerminal(in, out *os.File) *Terminal {
	return &Terminal{out: out, files: []*os.File{in, out}}
}

// take notes the terminal's modes before the UI changes them.
func (t *Terminal) take() {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.states = map[*os.File]*term.State{}
	for _, f := range t.files {
		if f == nil || !term.IsTerminal(f.Fd()) {
			continue
		}
		if st, err := term.GetState(f.Fd()); err == nil {
			t.states[f] = st
		}
	}
	t.held = true
}

// release notes that the UI gave the terminal back itself.
func (t *Terminal) release() {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.held = false
}

// Restore gives the terminal back if the UI still holds it: the screen
// modes are reset and the keyboard leaves raw mode. It does nothing once
// the UI has returned, so nothing is written over what was printed after.
func (t *Terminal) Restore() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.held {
		return
	}
	t.held = false
	_, _ = io.WriteString(t.out, screen.Leave)
	for f, st := range t.states {
		_ = term.Restore(f.Fd(), st)
	}
}

// Copy puts text on the system clipboard through the terminal (OSC 52),
// which works over SSH and inside tmux (with set-clipboard on). The
// terminal decides whether to allow it; nothing comes back to say so.
func (t *Terminal) Copy(text string) error {
	if t == nil {
		return errors.New("no terminal to copy through")
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	_, err := io.WriteString(t.out, "\x1b]52;c;"+base64.StdEncoding.EncodeToString([]byte(text))+"\x07")
	return err
}
