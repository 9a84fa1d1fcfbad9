package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/creack/pty"
)

// The screen answers what a program asks its terminal at start (the
// background colour, the cursor's place) as a terminal does, keeps all
// it is sent, and tells when text appeared after a mark.
func TestScreenAnswersTheTerminalQueries(t *testing.T) {
	master, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	defer tty.Close()
	// As a full-screen program sets it: answers arrive without a newline.
	if _, err := term.MakeRaw(tty.Fd()); err != nil {
		t.Fatal(err)
	}
	sc := newScreen(master, time.Now())
	defer master.Close()
	answers := make(chan string, 8)
	go func() {
		buf := make([]byte, 64)
		for {
			n, err := tty.Read(buf)
			if err != nil {
				close(answers)
				return
			}
			answers <- string(buf[:n])
		}
	}()
	for _, q := range []struct{ ask, answer string }{
		{"hello \x1b]11;?\x1b\\", "rgb:0000/0000/0000"},
		{"\x1b[6n", "\x1b[1;1R"},
	} {
		if _, err := io.WriteString(tty, q.ask); err != nil {
			t.Fatal(err)
		}
		select {
		case got := <-answers:
			if !strings.Contains(got, q.answer) {
				t.Fatalf("%q answered %q", q.ask, got)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%q was not answered", q.ask)
		}
	}
	if _, err := sc.waitFor("hello", 0, 5*time.Second); err != nil {
		t.Fatal(err)
	}
	mark := sc.mark()
	if _, err := sc.waitFor("hello", mark, 50*time.Millisecond); err == nil {
		t.Fatal("text before the mark was found after it")
	}
	if _, err := io.WriteString(tty, "world"); err != nil {
		t.Fatal(err)
	}
	if _, err := sc.waitFor("world", mark, 5*time.Second); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(sc.tail(5), "world") {
		t.Fatalf("tail %q", sc.tail(5))
	}
}

// A person's home names the endpoint and model in its config, and its
// project is a committed git repository with context files, so baton
// does at start what it does for a person.
func TestHomeIsAPersons(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	h, err := newHome(dir, "http://127.0.0.1:9/v1", "\n[limits]\nmax_concurrent = 64\n")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := os.ReadFile(filepath.Join(dir, ".config", "baton", "config.toml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`base_url = "http://127.0.0.1:9/v1"`, `model = "perf-model"`, "max_concurrent = 64"} {
		if !strings.Contains(string(cfg), want) {
			t.Errorf("config lacks %q:\n%s", want, cfg)
		}
	}
	status, err := exec.Command("git", "-C", h.project, "status", "--porcelain").CombinedOutput()
	if err != nil || len(status) != 0 {
		t.Fatalf("the project is not a clean repository: %v %s", err, status)
	}
	files, err := exec.Command("git", "-C", h.project, "ls-files").Output()
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(files), "\n"); n < projectPackages*filesPerPackage || !strings.Contains(string(files), "AGENTS.md") {
		t.Fatalf("%d files committed", n)
	}
	env := strings.Join(h.env, "\n")
	for _, want := range []string{"HOME=" + dir, "OPENAI_API_KEY=", "TERM=xterm-256color"} {
		if !strings.Contains(env, want) {
			t.Errorf("environment lacks %q", want)
		}
	}
}

// waitUntil returns once its condition holds and says what did not
// happen when it never does.
func TestWaitUntil(t *testing.T) {
	calls := 0
	if err := waitUntil(func() bool { calls++; return calls == 3 }, time.Second, "x"); err != nil || calls != 3 {
		t.Fatalf("err %v after %d calls", err, calls)
	}
	err := waitUntil(func() bool { return false }, 30*time.Millisecond, "the turn did not end")
	if err == nil || !strings.Contains(err.Error(), "the turn did not end") {
		t.Fatalf("err %v", err)
	}
}
