package ui

import (
	"context"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/permission"
)

// TestWholePathShellCommand: !command runs through the real session's
// run_command without a card, its output shows in the conversation, a
// denied one says why, and the model gets the output with the next
// prompt.
func TestWholePathShellCommand(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.NewServer(t, func(req *llmtest.Request, w *llmtest.Writer) {
		for _, m := range req.Body.Messages {
			if m.Role == "user" && strings.Contains(m.Content, "shell-says-hi") {
				w.Text("The command printed the greeting.")
				return
			}
		}
		w.Text("I saw no command.")
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, err := engine.NewSession(ctx, engine.Config{Client: srv.Client(), Model: "gpt-4.1", Workspace: dir, Mode: permission.Ask,
		Rules: []event.PermissionRule{{Kind: "deny", Rule: "run_command(curl:*)", Source: event.SourceUser}}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()

	tm := teatest.NewTestModel(t, New(s, Options{Workspace: dir, Theme: "dark"}), teatest.WithInitialTermSize(100, 30))
	tm.Type("!echo shell-says-hi")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "$ echo shell-says-hi (exit 0)")
	tm.Type("!curl http://example.com")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "deny run_command(curl:*)")
	tm.Type("what did it print?")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "The command printed the greeting.")
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
	final := tm.FinalModel(t, teatest.WithFinalTimeout(waitLimit)).(Model)
	if screen := ansi.Strip(final.View()); !strings.Contains(screen, "shell-says-hi") {
		t.Errorf("the command's output is not in the conversation:\n%s", screen)
	}
}
