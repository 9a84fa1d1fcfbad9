package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

// assertRestored checks that the terminal was given back: the alternate
// screen left and the cursor shown after the last time the UI took them.
func assertRestored(t *testing.T, out string) {
	t.Helper()
	if enter, leave := strings.LastIndex(out, "\x1b[?1049h"), strings.LastIndex(out, "\x1b[?1049l"); enter < 0 || leave < enter {
		t.Errorf("the alternate screen was not left (enter at %d, leave at %d); tail:\n%q", enter, leave, tail(out, 300))
	}
	if hide, show := strings.LastIndex(out, "\x1b[?25l"), strings.LastIndex(out, "\x1b[?25h"); show < hide {
		t.Errorf("the cursor was left hidden; tail:\n%q", tail(out, 300))
	}
}

// delegatingServer scripts a turn that starts one sub-agent which then
// streams until the request is cancelled; childIn gets a value each time
// a child is running.
func delegatingServer(t *testing.T) (*llmtest.Server, chan struct{}) {
	childIn := make(chan struct{}, 16)
	srv := llmtest.NewServer(t, func(r *llmtest.Request, w *llmtest.Writer) {
		if !strings.Contains(r.System(), "You are baton") {
			w.Chunk(`{"choices":[{"index":0,"delta":{"content":"half a finding"}}]}`)
			childIn <- struct{}{}
			<-w.Context().Done()
			return
		}
		w.ToolCalls(llmtest.Call{ID: "t1", Name: "task",
			Args: `{"description":"find sessions","prompt":"Find the session code.","subagent_type":"explore"}`})
	})
	return srv, childIn
}

// TestSignalsEndTheTUICleanly sends each ending signal to a real baton TUI
// while a sub-agent runs: it exits with 130, gives the terminal back, says
// how to resume, and records the child as interrupted. Before the fix,
// Bubble Tea's own handler raced ours and about half the tries hung.
func TestSignalsEndTheTUICleanly(t *testing.T) {
	srv, childIn := delegatingServer(t)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP} {
		for range 2 {
			r := startTUI(t, srv.URL)
			r.waitFor(t, "\x1b[?1049h")
			if _, err := r.tty.WriteString("find the session code\r"); err != nil {
				t.Fatal(err)
			}
			select {
			case <-childIn:
			case <-time.After(30 * time.Second):
				t.Fatalf("the sub-agent never started; output tail:\n%q", tail(r.output(), 300))
			}
			sent := time.Now()
			if err := r.cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			if code := r.wait(t); code != exitInterrupted {
				t.Errorf("%v: exit %d, want %d", sig, code, exitInterrupted)
			}
			t.Logf("%v: exited after %v", sig, time.Since(sent)) // a figure for notes, not asserted
			out := r.output()
			assertRestored(t, out)
			// The line names the program that ran: here the test binary,
			// which is not on the PATH as baton.
			self, _ := os.Executable()
			if !strings.Contains(out, self+" --continue") || !strings.Contains(out, self+" --resume ") {
				t.Errorf("%v: no resume line; tail:\n%q", sig, tail(out, 300))
			}
			assertChildInterrupted(t, r.home)
		}
	}
}

// TestSecondSignalExitsAtOnce sends two signals back to back: however far
// the first got, the process ends and the terminal is given back.
func TestSecondSignalExitsAtOnce(t *testing.T) {
	srv, childIn := delegatingServer(t)
	for range 3 {
		r := startTUI(t, srv.URL)
		r.waitFor(t, "\x1b[?1049h")
		if _, err := r.tty.WriteString("find the session code\r"); err != nil {
			t.Fatal(err)
		}
		<-childIn
		_ = r.cmd.Process.Signal(syscall.SIGTERM)
		_ = r.cmd.Process.Signal(syscall.SIGTERM)
		if code := r.wait(t); code != exitInterrupted {
			t.Errorf("exit %d, want %d", code, exitInterrupted)
		}
		assertRestored(t, r.output())
	}
}

// TestEmptySessionPrintsNoResumeLine quits a TUI that was never used:
// there is nothing to resume, so nothing is said about it and nothing is
// left for baton sessions to list.
func TestEmptySessionPrintsNoResumeLine(t *testing.T) {
	srv, _ := delegatingServer(t)
	r := startTUI(t, srv.URL)
	r.waitFor(t, "\x1b[?1049h")
	_ = r.cmd.Process.Signal(syscall.SIGTERM)
	if code := r.wait(t); code != exitInterrupted {
		t.Errorf("exit %d, want %d", code, exitInterrupted)
	}
	if out := r.output(); strings.Contains(out, "resume this session") {
		t.Errorf("an empty session printed a resume line:\n%q", tail(out, 300))
	}
	entries, err := filepath.Glob(filepath.Join(r.home, ".local", "state", "baton", "sessions", "*", "*"))
	var left []string
	for _, e := range entries {
		if info, err := os.Stat(e); err == nil && info.IsDir() { // session folders, not the prune stamp
			left = append(left, e)
		}
	}
	if err != nil || len(left) != 0 {
		t.Errorf("an empty session left %v (%v)", left, err)
	}
}

// assertChildInterrupted finds the session's main transcript under home
// and checks that the sub-agent was recorded as interrupted.
func assertChildInterrupted(t *testing.T, home string) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(home, ".local", "state", "baton", "sessions", "*", "*", "main.jsonl"))
	if err != nil || len(files) != 1 {
		t.Fatalf("main transcripts under %s: %v %v", home, files, err)
	}
	f, err := os.Open(files[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.Contains(line, `"type":"agent_finished"`) && strings.Contains(line, `"status":"interrupted"`) {
			return
		}
	}
	t.Errorf("the running sub-agent was not recorded as interrupted:\n%s", data)
}

// childPIDs are the processes whose parent is pid, read from /proc.
func childPIDs(t *testing.T, pid int) []int {
	t.Helper()
	stats, err := filepath.Glob("/proc/[0-9]*/stat")
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	for _, path := range stats {
		data, err := os.ReadFile(path)
		if err != nil {
			continue // it ended meanwhile
		}
		// pid (comm) state ppid …; comm may hold spaces and parentheses.
		fields := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:]))
		if len(fields) > 1 && fields[1] == strconv.Itoa(pid) {
			child, _ := strconv.Atoi(filepath.Base(filepath.Dir(path)))
			out = append(out, child)
		}
	}
	return out
}

// TestSignalsStopProcessChildren sends SIGTERM and SIGHUP to a real baton
// TUI whose sub-agent runs as a child process ([subagents] runner =
// "process"): baton exits with 130 having stopped and reaped it, so no
// child process is left behind, and the child is recorded as interrupted.
func TestSignalsStopProcessChildren(t *testing.T) {
	config := t.TempDir()
	writeFile(t, filepath.Join(config, "baton", "config.toml"), "[subagents]\nrunner = \"process\"\n")
	t.Setenv("XDG_CONFIG_HOME", config)
	srv, childIn := delegatingServer(t)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP} {
		r := startTUI(t, srv.URL)
		r.waitFor(t, "\x1b[?1049h")
		if _, err := r.tty.WriteString("find the session code\r"); err != nil {
			t.Fatal(err)
		}
		select {
		case <-childIn:
		case <-time.After(30 * time.Second):
			t.Fatalf("the sub-agent never started; output tail:\n%q", tail(r.output(), 300))
		}
		kids := childPIDs(t, r.cmd.Process.Pid) // the `__child` processes of the runner
		if len(kids) == 0 {
			t.Fatalf("%v: the sub-agent runs in no child process of baton", sig)
		}
		if err := r.cmd.Process.Signal(sig); err != nil {
			t.Fatal(err)
		}
		if code := r.wait(t); code != exitInterrupted {
			t.Errorf("%v: exit %d, want %d", sig, code, exitInterrupted)
		}
		for _, pid := range kids {
			if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
				t.Errorf("%v: child process %d outlived baton (kill 0: %v)", sig, pid, err)
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
		assertRestored(t, r.output())
		assertChildInterrupted(t, r.home)
	}
}
