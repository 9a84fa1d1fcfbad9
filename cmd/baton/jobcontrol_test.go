package main

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestTheShellCanStopAndContinueTheTUI runs baton from an interactive
// bash on a real terminal and stops it three ways: Ctrl+Z, a SIGTSTP sent
// from outside, and a SIGSTOP, which cannot be caught. Each time the shell
// gets its normal screen back and reports the job stopped, and after fg
// baton takes the terminal again: raw keys (a key reaches it at once,
// with no echo from the terminal) and the screen drawn anew.
func TestTheShellCanStopAndContinueTheTUI(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash to run baton under job control:", err)
	}
	srv, _ := delegatingServer(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	cmd := exec.Command(bash, "--norc", "--noprofile", "-i")
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "PS1=shell$ ", "HOME="+home, "XDG_STATE_HOME=", "TERM=xterm-256color",
		"OPENAI_BASE_URL="+srv.URL, "OPENAI_API_KEY=sk-test-0123456789",
		childArgsEnv+"="+strings.Join([]string{"--yolo", "--theme", "dark"}, "\x1f"))
	r := runOnPty(t, cmd, home)
	r.waitFor(t, "shell$ ")
	r.send(t, self+" -test.run=^$\r")
	r.waitFrom(t, 0, "\x1b[?1049h")
	r.waitFrom(t, 0, "ctrl+c")
	baton := childOf(t, cmd.Process.Pid)

	stops := []struct {
		name string
		stop func()
	}{
		{"ctrl+z", func() { r.send(t, "\x1a") }},
		{"SIGTSTP", func() { _ = syscall.Kill(baton, syscall.SIGTSTP) }},
		{"SIGSTOP", func() { _ = syscall.Kill(baton, syscall.SIGSTOP) }},
	}
	for i, s := range stops {
		from := r.mark()
		s.stop()
		r.waitFrom(t, from, "Stopped")
		if s.name == "ctrl+z" {
			// baton gave the screen back itself before it stopped.
			if out := r.output()[from:]; !strings.Contains(out, "\x1b[?1049l") {
				t.Errorf("%s: baton stopped without leaving the alternate screen:\n%q", s.name, out)
			}
		}
		r.waitFrom(t, from, "shell$ ")
		from = r.mark()
		r.send(t, "fg\r")
		r.waitFrom(t, from, "\x1b[?1049h")
		r.waitFrom(t, from, "ctrl+c")
		word := "word" + strconv.Itoa(i)
		from = r.mark()
		r.send(t, word)
		r.waitFrom(t, from, word)
		if lflag := r.localModes(t); lflag&(unix.ICANON|unix.ECHO) != 0 {
			t.Errorf("%s: after fg the terminal is not raw (lflag %#o): keys wait for Enter and echo", s.name, lflag)
		}
	}
	// The person goes on as before: baton quits on Ctrl+C and the shell
	// has its terminal back.
	from := r.mark()
	r.send(t, "\x03")
	r.waitFrom(t, from, "input cleared")
	r.send(t, "\x03")
	r.waitFrom(t, from, "again to quit")
	from = r.mark()
	r.send(t, "\x03")
	r.waitFrom(t, from, "shell$ ")
	assertRestored(t, r.output())
	r.send(t, "exit\r")
	if code := r.wait(t); code != 0 {
		t.Errorf("the shell exited %d", code)
	}
}

// TestCtrlZWithNoShellToComeBackToSaysSo presses Ctrl+Z in a baton that
// leads its own session, as when tmux or a terminal runs it without a
// shell: nothing could continue it, so it does not stop, says why, and
// keeps working.
func TestCtrlZWithNoShellToComeBackToSaysSo(t *testing.T) {
	srv, _ := delegatingServer(t)
	r := startTUI(t, srv.URL)
	r.waitFor(t, "ctrl+c")
	from := r.mark()
	r.send(t, "\x1a")
	r.waitFrom(t, from, "nothing to suspend to")
	from = r.mark()
	r.send(t, "stillhere")
	r.waitFrom(t, from, "stillhere")
}

// send types s on the terminal.
func (r *ptyRun) send(t *testing.T, s string) {
	t.Helper()
	if _, err := r.tty.WriteString(s); err != nil {
		t.Fatal(err)
	}
}

// mark is how much has been written so far.
func (r *ptyRun) mark() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.out.Len()
}

// waitFrom waits until what was written after from holds s.
func (r *ptyRun) waitFrom(t *testing.T, from int, s string) {
	t.Helper()
	for !strings.Contains(r.output()[from:], s) {
		select {
		case <-r.seen:
		case <-r.closed:
			t.Fatalf("the terminal closed before %q; tail:\n%q", s, tail(r.output(), 600))
		case <-time.After(30 * time.Second):
			t.Fatalf("%q never came; tail:\n%q", s, tail(r.output(), 600))
		}
	}
}

// localModes are the terminal's local modes (ICANON, ECHO …), read
// through the pty's master, which reports its other end's.
func (r *ptyRun) localModes(t *testing.T) uint32 {
	t.Helper()
	tio, err := unix.IoctlGetTermios(int(r.tty.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	return tio.Lflag
}

// childOf is the one child process of pid, found through /proc.
func childOf(t *testing.T, pid int) int {
	t.Helper()
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/task/" + strconv.Itoa(pid) + "/children")
	if err != nil {
		t.Fatal(err)
	}
	kids := strings.Fields(string(data))
	if len(kids) != 1 {
		t.Fatalf("pid %d has children %v, want one", pid, kids)
	}
	child, err := strconv.Atoi(kids[0])
	if err != nil {
		t.Fatal(err)
	}
	return child
}
