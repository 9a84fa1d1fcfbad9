package ui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/term"

	"github.com/seed-e4e525a6/baton/engine/rawio"
	"github.com/seed-e4e525a6/baton/themes"
	"github.com/seed-e4e525a6/baton/ui/screen"
)

// Run shows the UI full-screen until the person quits or ctx ends. The
// terminal is restored whatever happens: Bubble Tea recovers a panic in
// Update, View or a Cmd, and a panic anywhere else in the program kills
// it before the error is returned.
//
// Signals are the caller's: Bubble Tea's own SIGINT/SIGTERM handler is
// off. Two handlers raced: the caller cancelled ctx, the program left its
// event loop, and Bubble Tea's handler then blocked forever handing a
// QuitMsg to that loop, so shutdown waited on it and the terminal stayed
// in the alternate screen. A signal now only ever cancels ctx.
//
// Frames are drawn by a screen.Screen, not by Bubble Tea's renderer,
// whose ticker woke the process thirty times a second while nothing
// changed: the model says when a frame is due, and the screen writes the
// lines that changed.
func Run(ctx context.Context, s Session, opts Options) error {
	if _, ok := themes.ByName(opts.Theme); opts.Theme != "" && !ok {
		return fmt.Errorf("run ui: unknown theme %q (themes: %v)", opts.Theme, themes.Names())
	}
	in, closeIn := keyboard(os.Stdin)
	defer closeIn()
	return run(ctx, s, opts, in, os.Stdout)
}

// keyboard is where keys are read: stdin, or the controlling terminal
// when stdin is not one (baton started at the end of a pipe).
func keyboard(stdin *os.File) (*os.File, func()) {
	if term.IsTerminal(stdin.Fd()) {
		return stdin, func() {}
	}
	tty, err := os.Open("/dev/tty")
	if err != nil {
		return stdin, func() {}
	}
	return tty, func() { _ = tty.Close() }
}

// run is Run on given input and output, so tests can supply their own.
// A terminal on either side is put in raw mode, sized and watched for
// resizes; anything else is just read and written.
func run(ctx context.Context, s Session, opts Options, in io.Reader, out io.Writer) (err error) {
	frames := out
	if f, ok := out.(*os.File); ok {
		// A frame a window, written the usual way, woke the runtime's
		// monitor thread each time (see rawio.Writer).
		w := rawio.NewWriter(f)
		defer w.Close()
		frames = w
	}
	opts.Bell = sameWay(opts.Bell, out, frames)
	scr := screen.New(frames, screen.Modes{Mouse: !opts.NoMouse, Focus: true})
	o := &onScreen{Model: New(s, opts), screen: scr}
	p := tea.NewProgram(o,
		tea.WithInput(in), tea.WithOutput(out), tea.WithoutRenderer(), tea.WithContext(ctx), tea.WithoutSignalHandler())
	opts.Terminal.take()
	defer opts.Terminal.release()
	jobs := takeKeyboard(in, scr)
	defer jobs.close()
	o.jobs = jobs
	scr.Open()
	defer scr.Close()
	defer watchSize(out, p.Send)()
	jobs.watch(p.Send)
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

// sameWay is the writer for w: frames when w is out itself, so that what
// else goes to the terminal (the bell, rung from a background task) waits
// for a frame being written instead of landing inside it.
func sameWay(w, out, frames io.Writer) io.Writer {
	if w != nil && w == out {
		return frames
	}
	return w
}

// onScreen is the root model as the terminal sees it: after every
// message Bubble Tea asks for the view, and the screen draws what
// changed. The model builds a new view at most once a frame (see frame),
// so asking costs a comparison in between. It is handed to Bubble Tea as
// a pointer and updated in place, so a message costs no copy of the
// model.
type onScreen struct {
	Model
	screen *screen.Screen
	jobs   *jobControl
}

// Update hands the terminal's size and title to the screen, Ctrl+Z and
// continues to job control, and every message to the model.
func (o *onScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyMsg:
		if o.jobs != nil && key.Matches(msg, o.Model.keys.Suspend) {
			if notice := o.jobs.suspend(); notice != "" {
				return o, o.Model.update(jobNotice(notice))
			}
			return o, nil
		}
	case continuedMsg:
		o.jobs.reclaim()
		return o, nil
	case tea.WindowSizeMsg:
		o.screen.Resize(msg.Width, msg.Height)
	case windowTitleMsg:
		o.screen.Title(string(msg))
		return o, nil
	}
	return o, o.Model.update(msg)
}

// View draws the model's view; Bubble Tea has no renderer to give it to.
func (o *onScreen) View() string {
	o.screen.DrawLines(o.Model.view())
	return ""
}
