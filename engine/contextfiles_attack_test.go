package engine

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

// hostileLinks are what a cloned repository can make AGENTS.md: process
// memory holding the API key, endless or blocking devices, a FIFO nobody
// writes to, and a file outside the workspace.
func hostileLinks(t *testing.T) map[string]string {
	t.Helper()
	fifo := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "secrets.md")
	if err := os.WriteFile(outside, []byte("OUTSIDE-SECRET-7731"), 0o600); err != nil {
		t.Fatal(err)
	}
	return map[string]string{"environ": "/proc/self/environ", "zero": "/dev/zero", "fifo": fifo, "outside": outside, "tty": "/dev/tty"}
}

// startSession runs NewSession on its own goroutine so that a start that
// blocks on a FIFO or a terminal fails the test instead of hanging it.
func startSession(t *testing.T, ws string) (*Session, *llmtest.Server) {
	t.Helper()
	type started struct {
		s   *Session
		srv *llmtest.Server
	}
	done := make(chan started, 1)
	go func() {
		s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) { w.Text("ok") }, func(c *Config) { c.Workspace = ws })
		done <- started{s, srv}
	}()
	select {
	case st := <-done:
		return st.s, st.srv
	case <-time.After(testTimeout):
		t.Fatal("the session did not start: a context file blocked it")
		return nil, nil
	}
}

func TestHostileAgentsMDNeverReachesThePrompt(t *testing.T) {
	for name, target := range hostileLinks(t) {
		t.Run(name, func(t *testing.T) {
			ws := t.TempDir()
			if err := os.Symlink(target, filepath.Join(ws, "AGENTS.md")); err != nil {
				t.Fatal(err)
			}
			s, srv := startSession(t, ws)
			runTurn(t, s, "summarize", nil)
			system := srv.Requests()[0].System()
			if strings.Contains(system, "Project instructions") || strings.Contains(system, "OUTSIDE-SECRET") ||
				strings.Contains(system, "PATH=") || strings.Contains(system, "\x00") {
				t.Fatalf("the linked file reached the prompt:\n%.300q", system)
			}
			notes := strings.Join(s.StartNotes(), "\n")
			if !strings.Contains(notes, "skipped AGENTS.md") || !strings.Contains(notes, "not in the prompt") {
				t.Errorf("no notice of the skipped file; notes: %q", notes)
			}
		})
	}
}

// TestSkippedAgentsMDFallsBackToClaudeMD: a link that cannot be used is
// not the project's instructions; a real CLAUDE.md still is.
func TestSkippedAgentsMDFallsBackToClaudeMD(t *testing.T) {
	ws := t.TempDir()
	writeFile(t, ws, "CLAUDE.md", "Prefer table tests.")
	if err := os.Symlink("/dev/zero", filepath.Join(ws, "AGENTS.md")); err != nil {
		t.Fatal(err)
	}
	s, srv := startSession(t, ws)
	runTurn(t, s, "go", nil)
	contains(t, "main system prompt", srv.Requests()[0].System(), "Prefer table tests.")
	contains(t, "notes", strings.Join(s.StartNotes(), "\n"), "skipped AGENTS.md")
}

func TestLargeContextFileIsCutWithANotice(t *testing.T) {
	ws := t.TempDir()
	// A real CLAUDE.md of 30 KB fits whole.
	writeFile(t, ws, "CLAUDE.md", strings.Repeat("rule\n", 6000)+"LAST-RULE")
	s, srv := startSession(t, ws)
	runTurn(t, s, "go", nil)
	contains(t, "30 KB CLAUDE.md", srv.Requests()[0].System(), "LAST-RULE")
	if notes := s.StartNotes(); len(notes) != 0 {
		t.Errorf("notes for a file under the cap: %q", notes)
	}

	ws = t.TempDir()
	writeFile(t, ws, "AGENTS.md", "FIRST-RULE\n"+strings.Repeat("é", defaultLimits.ContextFileBytes)+"AFTER-CAP")
	s, srv = startSession(t, ws)
	runTurn(t, s, "go", nil)
	system := srv.Requests()[0].System()
	contains(t, "cut AGENTS.md", system, "FIRST-RULE")
	contains(t, "cut AGENTS.md", system, "[cut: AGENTS.md is larger than 256 KiB]")
	if strings.Contains(system, "AFTER-CAP") || strings.ContainsRune(system, '\uFFFD') {
		t.Error("the prompt holds text past the cap or half a character")
	}
	contains(t, "notes", strings.Join(s.StartNotes(), "\n"), "only its first 256 KiB are in the prompt")

	// [limits] context_file_bytes sets the cap.
	ws = t.TempDir()
	writeFile(t, ws, "AGENTS.md", "FIRST-RULE\n"+strings.Repeat("x", 4<<10)+"AFTER-CAP")
	s, srv = newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) { w.Text("ok") }, func(c *Config) {
		c.Workspace, c.Limits.ContextFileBytes = ws, 2<<10
	})
	runTurn(t, s, "go", nil)
	system = srv.Requests()[0].System()
	contains(t, "a configured cap", system, "[cut: AGENTS.md is larger than 2 KiB]")
	if strings.Contains(system, "AFTER-CAP") {
		t.Error("the prompt holds text past the configured cap")
	}
}

// TestHostileNestedContextFile: a sub-folder's AGENTS.md linked outside is
// skipped when the agent first touches the folder, with a notice, and the
// read itself still works.
func TestHostileNestedContextFile(t *testing.T) {
	for name, target := range hostileLinks(t) {
		t.Run(name, func(t *testing.T) {
			ws := t.TempDir()
			writeFile(t, ws, "web/app.js", "export const a = 1\n")
			if err := os.Symlink(target, filepath.Join(ws, "web", "AGENTS.md")); err != nil {
				t.Fatal(err)
			}
			s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
				if len(toolMessages(r)) == 0 {
					w.ToolCalls(llmtest.Call{ID: "r1", Name: "read_file", Args: `{"path":"web/app.js"}`})
					return
				}
				w.Text("done")
			}, func(c *Config) { c.Workspace = ws })
			log := runTurn(t, s, "go", nil)
			result := toolMessages(srv.Requests()[1])[0]
			contains(t, "read result", result, "export const a = 1")
			if strings.Contains(result, "Instructions from") || strings.Contains(result, "OUTSIDE-SECRET") || strings.Contains(result, "PATH=") {
				t.Fatalf("the linked file reached the tool result:\n%.300q", result)
			}
			var notes []string
			for _, n := range eventsOf[event.Notice](log) {
				notes = append(notes, n.Text)
			}
			contains(t, "notices", strings.Join(notes, "\n"), "skipped web/AGENTS.md")
		})
	}
}
