package ui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/permission"
)

// waitLimit bounds each wait for the screen; it is a hang guard, never a
// timing assertion.
const waitLimit = 20 * time.Second

// TestWholePathAgainstServer runs the real engine against the scripted
// OpenAI server through the UI in a Bubble Tea program: a prompt typed
// and sent, a write_file permission card answered by key, the tool's
// outcome reaching the model, the final answer drawn, and quitting.
func TestWholePathAgainstServer(t *testing.T) {
	for key, allowed := range map[string]bool{"y": true, "n": false} {
		t.Run(key, func(t *testing.T) {
			dir := t.TempDir()
			srv := llmtest.NewServer(t, func(req *llmtest.Request, w *llmtest.Writer) {
				switch {
				case req.HasToolResult("denied"):
					w.Text("Understood, I left **hello.txt** alone.")
				case req.Index > 0:
					w.Text("I wrote **hello.txt** for you.")
				default:
					w.ToolCalls(llmtest.Call{Name: "write_file", Args: `{"path":"hello.txt","content":"hi\n"}`})
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
			tm.Type("make hello.txt")
			tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
			waitFor(t, tm, "Allow write_file?")
			waitFor(t, tm, "y allow once ·") // armed: the card takes keys
			tm.Type(key)
			if key == "n" {
				waitFor(t, tm, "deny, telling the model why")
				tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
			}
			want := map[bool]string{true: "I wrote hello.txt", false: "I left hello.txt alone"}[allowed]
			waitFor(t, tm, want)

			_, err = os.Stat(filepath.Join(dir, "hello.txt"))
			if written := err == nil; written != allowed {
				t.Errorf("after %q the file exists = %v", key, written)
			}
			tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
			tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
			tm.WaitFinished(t, teatest.WithFinalTimeout(waitLimit))
		})
	}
}

// waitFor waits until the program has drawn text.
func waitFor(t *testing.T, tm *teatest.TestModel, text string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return strings.Contains(ansi.Strip(string(b)), text) },
		teatest.WithDuration(waitLimit), teatest.WithCheckInterval(10*time.Millisecond))
}
