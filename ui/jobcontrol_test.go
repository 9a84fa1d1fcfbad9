//go:build linux

package ui

import (
	"os"
	"runtime"
	"strings"
	"syscall"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/creack/pty"
	"golang.org/x/sys/unix"

	"github.com/seed-e4e525a6/baton/ui/screen"
)

// localModes are the terminal's local modes (ICANON, ECHO …).
func localModes(t *testing.T, f *os.File) uint32 {
	t.Helper()
	tio, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	return tio.Lflag
}

// The keyboard is raw while the UI holds it and cooked again after; a
// continue the UI did not ask for (a real SIGCONT to this process) takes
// the terminal again, raw and on a screen drawn anew, and one the UI's own
// stop brings is left to that stop.
func TestJobControlTakesTheTerminalBackAfterAContinue(t *testing.T) {
	tty, out, scr := heldTerminal(t)
	j := takeKeyboard(tty, scr)
	if localModes(t, tty)&(unix.ICANON|unix.ECHO) != 0 {
		t.Fatal("the keyboard is not raw while the UI holds it")
	}
	sent := make(chan tea.Msg, 4)
	j.watch(func(m tea.Msg) { sent <- m })

	// The shell put its own modes back while baton was stopped.
	if err := unix.IoctlSetTermios(int(tty.Fd()), unix.TCSETS, cookedOf(t, j)); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(os.Getpid(), syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	if _, ok := (<-sent).(continuedMsg); !ok {
		t.Fatal("a continue was not reported")
	}
	j.reclaim()
	if localModes(t, tty)&(unix.ICANON|unix.ECHO) != 0 {
		t.Fatal("the keyboard is not raw again after the continue")
	}
	if !strings.Contains(out.String(), "\x1b[?1049h") {
		t.Fatalf("the screen was not taken again: %q", out.String())
	}

	// A continue the UI's own stop brings is not reported twice.
	j.own.Add(1)
	if err := syscall.Kill(os.Getpid(), syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	closeUnreported(t, j, sent)
	if localModes(t, tty)&unix.ICANON == 0 {
		t.Fatal("the keyboard was not given back its modes")
	}
}

// closeUnreported waits until j has taken the continue its own stop
// brought, closes it, and fails if that continue reached sent.
func closeUnreported(t *testing.T, j *jobControl, sent <-chan tea.Msg) {
	t.Helper()
	for j.own.Load() != 0 {
		runtime.Gosched()
	}
	j.close()
	select {
	case m := <-sent:
		t.Fatalf("the UI's own continue was reported: %T", m)
	default:
	}
}

// heldTerminal is a pseudo-terminal's keyboard side and a screen whose
// output is kept; both ends close when the test does.
func heldTerminal(t *testing.T) (*os.File, *strings.Builder, *screen.Screen) {
	t.Helper()
	master, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = master.Close()
		_ = tty.Close()
	})
	out := &strings.Builder{}
	return tty, out, screen.New(out, screen.Modes{})
}

// cookedOf is the keyboard's modes from before the UI took it.
func cookedOf(t *testing.T, j *jobControl) *unix.Termios {
	t.Helper()
	tio, err := unix.IoctlGetTermios(int(j.keyboard.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	tio.Lflag |= unix.ICANON | unix.ECHO
	return tio
}

// Ctrl+Z where keys do not come from a terminal says why nothing stops.
func TestSuspendWithoutATerminalSaysWhy(t *testing.T) {
	j := takeKeyboard(strings.NewReader(""), screen.New(&strings.Builder{}, screen.Modes{}))
	j.watch(func(tea.Msg) { t.Error("a message from a job with no terminal") })
	if notice := j.suspend(); !strings.Contains(notice, "nothing to suspend to") {
		t.Fatalf("notice %q", notice)
	}
	j.reclaim()
	j.close()
}

// Ctrl+Z gives the terminal back before the job stops, cooked and on its
// normal screen, and takes it again when the job goes on: raw, and the
// next frame drawn whole on the alternate screen. The stop is this
// test's stand-in (TestStopJobStopsTheGroupUntilItContinues stops a
// process for real); the continue it brings is the UI's own, which the
// watcher does not report again.
func TestCtrlZGivesTheTerminalBackUntilTheJobGoesOn(t *testing.T) {
	tty, out, scr := heldTerminal(t)
	scr.Open()
	j := takeKeyboard(tty, scr)
	sent := make(chan tea.Msg, 4)
	j.watch(func(m tea.Msg) { sent <- m })
	stopped := false
	j.stoppable = func() bool { return true }
	j.stop = func() {
		stopped = true
		if localModes(t, tty)&unix.ICANON == 0 {
			t.Error("the job stopped with the keyboard raw")
		}
		if !strings.HasSuffix(out.String(), screen.Leave) {
			t.Errorf("the job stopped on the alternate screen: %q", out.String())
		}
		if err := syscall.Kill(os.Getpid(), syscall.SIGCONT); err != nil {
			t.Error(err)
		}
	}
	o := &onScreen{Model: New(newFakeSession(), Options{}), screen: scr, jobs: j}
	o.Update(tea.WindowSizeMsg{Width: 80, Height: 20})
	o.View()
	before := out.Len()
	o.Update(tea.KeyMsg{Type: tea.KeyCtrlZ})
	if !stopped {
		t.Fatal("ctrl+z did not stop the job")
	}
	if localModes(t, tty)&(unix.ICANON|unix.ECHO) != 0 {
		t.Fatal("the keyboard is not raw again after the job went on")
	}
	o.View()
	if again := out.String()[before:]; !strings.Contains(again, "\x1b[?1049h") || !strings.Contains(again, "Ask baton anything") {
		t.Fatalf("the screen was not taken again and drawn whole: %q", again)
	}
	closeUnreported(t, j, sent)

	// A stop the UI cannot come back from is refused, with a notice; a
	// continue from outside takes the terminal again.
	j = takeKeyboard(tty, scr)
	j.stoppable = func() bool { return false }
	j.stop = func() { t.Error("stopped a job no shell could continue") }
	o.jobs = j
	o.Update(tea.KeyMsg{Type: tea.KeyCtrlZ})
	if !strings.Contains(strings.Join(o.Model.view(), "\n"), "nothing to suspend to") {
		t.Fatal("the refusal was not shown")
	}
	before = out.Len()
	o.Update(continuedMsg{})
	if !strings.Contains(out.String()[before:], "\x1b[?1049h") {
		t.Fatal("a continue from outside did not take the screen again")
	}
	j.close()
}
