//go:build !unix

package ui

import (
	"io"
	"os"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/term"
)

// watchSize tells send the size of out, when it is a terminal; without
// SIGWINCH a resize is not seen.
func watchSize(out io.Writer, send func(tea.Msg)) (stop func()) {
	if f, ok := out.(*os.File); ok && term.IsTerminal(f.Fd()) {
		if w, h, err := term.GetSize(f.Fd()); err == nil {
			go send(tea.WindowSizeMsg{Width: w, Height: h})
		}
	}
	return func() {}
}
