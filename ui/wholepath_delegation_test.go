package ui

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/permission"
)

// TestWholePathDelegation runs the real engine against the scripted
// server through the UI: the main agent delegates, the card is approved
// with y, the child's pane runs (held mid-run until the test has seen
// it), folds into the conversation, and the parent's next request
// carries the child's result.
func TestWholePathDelegation(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "auth.go"), []byte("package auth\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	srv := llmtest.NewServer(t, func(req *llmtest.Request, w *llmtest.Writer) {
		isChild := !slices.Contains(req.ToolNames(), child.TaskToolName)
		switch {
		case isChild && req.HasToolResult("auth.go"):
			select { // hold the child at work until the test saw its pane
			case <-release:
			case <-w.Context().Done():
				return
			}
			w.Text("CHILD-RESULT: the auth code is in auth.go")
		case isChild:
			w.ToolCalls(llmtest.Call{ID: "c1", Name: "list_files", Args: `{"path":"."}`})
		case req.HasToolResult("CHILD-RESULT"):
			w.Text("The child found **auth.go**.")
		default:
			w.ToolCalls(llmtest.Call{ID: "t1", Name: child.TaskToolName,
				Args: `{"description":"find auth code","prompt":"Find the auth code.","subagent_type":"explore"}`})
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, err := engine.NewSession(ctx, engine.Config{Client: srv.Client(), Model: "gpt-4.1", Workspace: dir, Mode: permission.Ask})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()

	tm := teatest.NewTestModel(t, New(s, Options{Workspace: dir, Theme: "dark", Mode: "ask"}), teatest.WithInitialTermSize(100, 30))
	tm.Type("where is auth?")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "Delegate? [Explore] find auth code")
	waitFor(t, tm, "y approve ·") // armed: the card takes keys
	tm.Type("y")
	waitFor(t, tm, "[Explore] find auth code ... 1 tool")
	close(release)
	// The fold and the answer may come in one frame, so one wait sees both.
	waitForAll(t, tm, "✓ #1 [Explore] find auth code - done", "The child found auth.go.")

	reqs := srv.Requests()
	last := reqs[len(reqs)-1]
	if !last.HasToolResult("CHILD-RESULT: the auth code is in auth.go") || !slices.Contains(last.ToolNames(), child.TaskToolName) {
		t.Errorf("the parent's last request does not carry the child's result")
	}
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
	tm.WaitFinished(t, teatest.WithFinalTimeout(waitLimit))
}

// waitForAll waits until the program has drawn every text, in any of the
// frames since the last wait.
func waitForAll(t *testing.T, tm *teatest.TestModel, texts ...string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		plain := ansi.Strip(string(b))
		for _, text := range texts {
			if !strings.Contains(plain, text) {
				return false
			}
		}
		return true
	}, teatest.WithDuration(waitLimit), teatest.WithCheckInterval(10*time.Millisecond))
}
