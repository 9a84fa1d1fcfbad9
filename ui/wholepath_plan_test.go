package ui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/permission"
)

// TestWholePathPlanMode: shift+tab twice puts the real session in plan
// mode, the prompt reaches the model with the plan-mode note, the plan it
// offers waits on its card, and a accepts it with edits running unasked:
// the write the model then makes runs without a card.
func TestWholePathPlanMode(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.NewServer(t, func(req *llmtest.Request, w *llmtest.Writer) {
		switch {
		case req.HasToolResult("created"):
			w.Text("All done: notes.txt is written.")
		case req.HasToolResult("accepted the plan"):
			w.ToolCalls(llmtest.Call{ID: "w1", Name: "write_file", Args: `{"path":"notes.txt","content":"planned\n"}`})
		case strings.Contains(req.LastUser(), engine.ExitPlanToolName):
			w.ToolCalls(llmtest.Call{ID: "p1", Name: engine.ExitPlanToolName, Args: `{"plan":"1. write notes.txt with one line"}`})
		default:
			w.Text("I was not told I am in plan mode.")
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, err := engine.NewSession(ctx, engine.Config{Client: srv.Client(), Model: "gpt-4.1", Workspace: dir, Mode: permission.Ask})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()

	tm := teatest.NewTestModel(t, New(s, Options{Workspace: dir, Theme: "dark"}), teatest.WithInitialTermSize(100, 30))
	tm.Send(tea.KeyMsg{Type: tea.KeyShiftTab})
	waitFor(t, tm, "auto-accept edits")
	tm.Send(tea.KeyMsg{Type: tea.KeyShiftTab})
	waitFor(t, tm, "plan mode")
	tm.Type("add notes")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "Carry out this plan?")
	waitFor(t, tm, "a yes, auto-accept edits") // armed
	tm.Type("a")
	waitFor(t, tm, "All done")
	if data, err := os.ReadFile(filepath.Join(dir, "notes.txt")); err != nil || string(data) != "planned\n" {
		t.Errorf("notes.txt = %q, %v", data, err)
	}
	if got := s.AgentMode(); got != engine.AgentModeAutoAccept {
		t.Errorf("the session is in %s after the plan was accepted with a", got)
	}
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
	tm.WaitFinished(t, teatest.WithFinalTimeout(waitLimit))
}
