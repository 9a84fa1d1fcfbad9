package ui

import (
	"io"
	"os"
	"os/signal"
	"sync/atomic"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/term"

	"github.com/seed-e4e525a6/baton/ui/screen"
)

// jobControl holds the keyboard in raw mode and lets the person put baton
// aside for the shell and bring it back. Ctrl+Z gives the terminal back,
// cooked and on its normal screen, and stops the job; when it continues
// (fg) the keyboard goes raw again and the screen is drawn whole. A stop
// the UI did not make (SIGTSTP or SIGSTOP sent from outside) is answered
// the same way once the job continues: the shell put its own modes back
// and wrote over the screen meanwhile.
//
// SIGTSTP itself is left to its default action, stopping the process:
// once a Go program has asked for a signal, the runtime keeps its own
// handler for it, and the job could no longer stop itself with it.
type jobControl struct {
	keyboard *os.File    // nil: keys do not come from a terminal
	cooked   *term.State // the keyboard's modes before raw mode
	screen   *screen.Screen

	conts chan os.Signal
	// own counts the continues the UI's own stops will bring, which the
	// watcher leaves to suspend.
	own         atomic.Int32
	done, ended chan struct{}

	// stoppable and stop are the system's (see jobcontrol_linux.go); a
	// test stands in for the stop of its own process group.
	stoppable func() bool
	stop      func()
}

// continuedMsg says the job continued after a stop the UI did not make.
type continuedMsg struct{}

// jobNotice is why the UI could not stop, for the status line.
type jobNotice string

// takeKeyboard puts in, when it is a terminal, in raw mode (keys one by
// one, no echo, no line editing); close gives it back.
func takeKeyboard(in io.Reader, scr *screen.Screen) *jobControl {
	j := &jobControl{screen: scr, stoppable: stoppable, stop: stopJob}
	f, ok := in.(*os.File)
	if !ok || !term.IsTerminal(f.Fd()) {
		return j
	}
	st, err := term.MakeRaw(f.Fd())
	if err != nil {
		return j
	}
	j.keyboard, j.cooked = f, st
	return j
}

// watch tells send of the continues after stops the UI did not make,
// until close. Without a terminal there is no job to control.
func (j *jobControl) watch(send func(tea.Msg)) {
	if j.keyboard == nil || !jobSignals {
		return
	}
	j.conts = make(chan os.Signal, 1)
	j.done, j.ended = make(chan struct{}), make(chan struct{})
	signal.Notify(j.conts, continueSignal)
	go func() {
		defer close(j.ended)
		for {
			select {
			case <-j.conts:
				if j.own.Add(-1) < 0 {
					j.own.Add(1)
					send(continuedMsg{})
				}
			case <-j.done:
				return
			}
		}
	}()
}

// close stops watching and gives the keyboard back its modes.
func (j *jobControl) close() {
	if j.done != nil {
		signal.Stop(j.conts)
		close(j.done)
		<-j.ended
	}
	if j.keyboard != nil {
		_ = term.Restore(j.keyboard.Fd(), j.cooked)
	}
}

// suspend gives the terminal back and stops the job until it continues,
// then takes the terminal again. It runs on the event loop, which has
// nothing to do while the process is stopped. The notice says why
// nothing happened, when nothing did.
func (j *jobControl) suspend() (notice string) {
	if j.keyboard == nil || !jobSignals {
		return "nothing to suspend to: baton does not run in a terminal here"
	}
	if !j.stoppable() {
		return "nothing to suspend to: no shell here would bring baton back"
	}
	j.screen.Close()
	_ = term.Restore(j.keyboard.Fd(), j.cooked)
	if j.done != nil {
		j.own.Add(1)
	}
	j.stop()
	j.reclaim()
	return ""
}

// reclaim takes the terminal again after a stop: raw keys, the
// alternate screen and its modes, and the next frame drawn whole.
func (j *jobControl) reclaim() {
	if j.keyboard == nil {
		return
	}
	_, _ = term.MakeRaw(j.keyboard.Fd())
	j.screen.Reopen()
}
