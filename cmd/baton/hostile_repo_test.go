package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

// TestHostileRepository runs `baton -p summarize` in a cloned repository
// whose every file baton reads is a trap: the project config is a FIFO,
// AGENTS.md links to the process environment, an agent file to /dev/zero,
// .gitignore to a FIFO, CLAUDE.md to a file outside. The run finishes,
// nothing of those reaches the model, and stderr says what was skipped.
func TestHostileRepository(t *testing.T) {
	t.Parallel()
	var asked []string
	srv := llmtest.NewServer(t, func(r *llmtest.Request, w *llmtest.Writer) {
		if r.Index == 0 {
			w.ToolCalls(llmtest.Call{Name: "list_files", Args: `{}`})
			return
		}
		w.Text("summary")
	})
	ws, home := t.TempDir(), t.TempDir()
	outside := filepath.Join(t.TempDir(), "notes.md")
	if err := os.WriteFile(outside, []byte("OUTSIDE-SECRET-4242"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, fifo := range []string{".baton/config.toml", "fifo"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(ws, fifo)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Mkfifo(filepath.Join(ws, fifo), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for name, target := range map[string]string{
		"AGENTS.md": "/proc/self/environ", "CLAUDE.md": outside, ".baton/agents/explore.md": "/dev/zero", ".gitignore": "fifo",
	} {
		path := filepath.Join(ws, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, path); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{"HOME=" + home, "OPENAI_BASE_URL=" + srv.URL, "OPENAI_API_KEY=sk-env-secret-0123456789"}
	var stdout, stderr bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run(context.Background(), ws, []string{"-p", "summarize"}, env, strings.NewReader(""), &stdout, &stderr, nil)
	}()
	var code int
	select {
	case code = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("baton hung on a file the repository handed it")
	}
	if code != exitOK || stdout.String() != "summary\n" {
		t.Fatalf("exit %d, stdout %q\nstderr: %s", code, stdout.String(), stderr.String())
	}
	for _, r := range srv.Requests() {
		for _, m := range r.Body.Messages {
			asked = append(asked, m.Content)
		}
	}
	all := strings.Join(asked, "\n")
	for _, leak := range []string{"sk-env-secret", "OUTSIDE-SECRET", "HOME=", "Project instructions"} {
		if strings.Contains(all, leak) {
			t.Errorf("the model was sent %q", leak)
		}
	}
	for _, note := range []string{
		".baton/config.toml skipped: a named pipe (FIFO)", "skipped AGENTS.md: resolves outside the workspace",
		"skipped CLAUDE.md: resolves outside the workspace", "explore.md: skipped: resolves outside the workspace",
	} {
		if !strings.Contains(stderr.String(), note) {
			t.Errorf("stderr lacks %q:\n%s", note, stderr.String())
		}
	}
	if !strings.Contains(all, "[note: .gitignore not applied: a named pipe (FIFO)") {
		t.Errorf("the listing did not say the .gitignore was not applied:\n%s", all)
	}
}
