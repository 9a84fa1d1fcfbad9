package process_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/child/process"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/permission"
)

// TestATaskCallWarmsTheProcessOfItsChild: as the main agent's model
// begins a task call, a spare child process starts; the child, once
// approved, runs in it. Its process shows the child's id, as one started
// cold does, in the place of the spare's longer name (the NULs left
// over say it was the spare).
func TestATaskCallWarmsTheProcessOfItsChild(t *testing.T) {
	var cmdline string
	srv := llmtest.NewServer(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case isChild(r):
			raw, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(childProcess("explore-1")), "cmdline"))
			cmdline = string(raw)
			w.Text("looked")
		case len(toolResults(r)) == 0:
			w.ToolCalls(llmtest.Call{ID: "t", Name: child.TaskToolName, Args: `{"description":"look","prompt":"look around","subagent_type":"explore"}`})
		default:
			w.Text("done")
		}
	})
	s, err := engine.NewSession(context.Background(), engine.Config{Client: srv.Client(), Endpoint: srv.Endpoint(), Model: "m",
		Workspace: t.TempDir(), Mode: permission.Yolo, Runner: child.RunnerProcess})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var finished []event.AgentFinished
	watch(t, s, "go", func(ev event.Event) {
		if f, ok := ev.(event.AgentFinished); ok {
			finished = append(finished, f)
		}
	})
	if len(finished) != 1 || finished[0].Status != event.StatusCompleted || finished[0].Text != "looked" {
		t.Fatalf("finished %+v", finished)
	}
	if !strings.Contains(cmdline, "\x00"+process.Subcommand+"\x00explore-1\x00\x00") {
		t.Fatalf("the child ran in %q, not in a spare that took its name", cmdline)
	}
}
