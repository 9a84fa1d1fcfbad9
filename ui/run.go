package ui

import (
	"context"
	"errors"
	"fmt"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/themes"
)

// Run shows the UI full-screen until the person quits or ctx ends. The
// terminal is restored whatever happens: Bubble Tea restores it after a
// panic in Update, View or a Cmd, and a panic anywhere else in the program
// kills it before the error is returned.
//
// Signals are the caller's: Bubble Tea's own SIGINT/SIGTERM handler is
// off. Two handlers raced: the caller cancelled ctx, the program left its
// event loop, and Bubble Tea's handler then blocked forever handing a
// QuitMsg to that loop, so shutdown waited on it and the terminal stayed
// in the alternate screen. A signal now only ever cancels ctx.
func Run(ctx context.Context, s Session, opts Options) error {
	if _, ok := themes.ByName(opts.Theme); opts.Theme != "" && !ok {
		return fmt.Errorf("run ui: unknown theme %q (themes: %v)", opts.Theme, themes.Names())
	}
	return run(ctx, s, opts, screenOptions(opts)...)
}

// screenOptions take the whole screen and, unless NoMouse, the mouse.
// Focus reports tell a waiting card that the person looked away, so it
// calls them back at once (see notifier).
func screenOptions(opts Options) []tea.ProgramOption {
	progOpts := []tea.ProgramOption{tea.WithAltScreen(), tea.WithReportFocus(), tea.WithFPS(rendererFPS)}
	if !opts.NoMouse {
		progOpts = append(progOpts, tea.WithMouseCellMotion())
	}
	return progOpts
}

// rendererFPS is how often Bubble Tea's renderer looks for a new frame. Its
// ticker runs even when nothing changes, so it is the idle cost; the model
// builds at most one view per FrameInterval anyway, so a faster renderer
// would only wake to find nothing new.
const rendererFPS = int(time.Second / FrameInterval)

// run is Run with the program's options given, so tests can supply their
// own input and output.
func run(ctx context.Context, s Session, opts Options, progOpts ...tea.ProgramOption) (err error) {
	p := tea.NewProgram(New(s, opts), append(progOpts, tea.WithContext(ctx), tea.WithoutSignalHandler())...)
	opts.Terminal.take()
	defer opts.Terminal.release()
	defer func() {
		if r := recover(); r != nil {
			p.Kill()
			_ = p.ReleaseTerminal()
			err = fmt.Errorf("run ui: panic: %v", r)
		}
	}()
	_, err = p.Run()
	switch {
	case err == nil:
		return nil
	case errors.Is(err, tea.ErrProgramPanic):
		return fmt.Errorf("run ui: %w", err)
	case errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil:
		return nil // the caller ended the session; that is a normal end
	}
	return fmt.Errorf("run ui: %w", err)
}
