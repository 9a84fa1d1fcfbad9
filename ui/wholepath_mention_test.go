package ui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/permission"
)

// TestWholePathMention: @ completes from the real workspace, the chosen
// file's content reaches the model with the prompt, and the conversation
// shows it attached.
func TestWholePathMention(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.md"), []byte("remember the milk\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := llmtest.NewServer(t, func(req *llmtest.Request, w *llmtest.Writer) {
		if strings.Contains(req.LastUser(), "remember the milk") {
			w.Text("The notes say: buy milk.")
			return
		}
		w.Text("I did not get the file.")
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, err := engine.NewSession(ctx, engine.Config{Client: srv.Client(), Model: "gpt-4.1", Workspace: dir, Mode: permission.Ask})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()

	tm := teatest.NewTestModel(t, New(s, Options{Workspace: dir, Theme: "dark"}), teatest.WithInitialTermSize(100, 30))
	tm.Type("what do @no")
	waitFor(t, tm, "@notes.md")
	tm.Send(tea.KeyMsg{Type: tea.KeyTab})
	tm.Type("say?")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "The notes say: buy milk.")
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
	final := tm.FinalModel(t, teatest.WithFinalTimeout(waitLimit)).(Model)
	if screen := ansi.Strip(final.View()); !strings.Contains(screen, "attach @notes.md (1 line)") {
		t.Errorf("the conversation does not show the file attached:\n%s", screen)
	}
	if got := srv.Requests()[0].LastUser(); !strings.HasPrefix(got, "what do @notes.md say?") {
		t.Errorf("the model got %q", got)
	}
}
