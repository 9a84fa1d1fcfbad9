//go:build unix

package ui

import (
	"io"
	"os"
	"os/signal"
	"syscall"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/term"
)

// watchSize tells send the size of out, when it is a terminal, now and
// after every resize (SIGWINCH), until the returned stop is called.
func watchSize(out io.Writer, send func(tea.Msg)) (stop func()) {
	f, ok := out.(*os.File)
	if !ok || !term.IsTerminal(f.Fd()) {
		return func() {}
	}
	resized := make(chan os.Signal, 1)
	signal.Notify(resized, syscall.SIGWINCH)
	done, ended := make(chan struct{}), make(chan struct{})
	// Ends when stop closes done; a send in flight returns once the
	// program has ended.
	go func() {
		defer close(ended)
		for {
			if w, h, err := term.GetSize(f.Fd()); err == nil {
				send(tea.WindowSizeMsg{Width: w, Height: h})
			}
			select {
			case <-resized:
			case <-done:
				return
			}
		}
	}()
	return func() {
		signal.Stop(resized)
		close(done)
		<-ended
	}
}
