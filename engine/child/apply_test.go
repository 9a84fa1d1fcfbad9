package child_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/sessiontest"
)

// twoFileChild scripts a main agent that delegates one worktree child,
// which edits a.txt and then b.txt; before the child's last request
// returns, beforeEnd runs (the person working in their tree meanwhile).
func twoFileChild(beforeEnd func()) llmtest.Responder {
	return func(r *llmtest.Request, w *llmtest.Writer) {
		done := len(sessiontest.ToolMessages(r))
		switch {
		case !sessiontest.IsChild(r) && done == 0:
			w.ToolCalls(llmtest.Call{ID: "t", Name: "task", Args: `{"description":"edit","prompt":"edit both","subagent_type":"general-purpose","isolation":"worktree"}`})
		case !sessiontest.IsChild(r):
			w.Text("ok")
		case done == 0:
			w.ToolCalls(llmtest.Call{ID: "a", Name: "write_file", Args: `{"path":"a.txt","content":"a by the child\n"}`})
		case done == 1:
			w.ToolCalls(llmtest.Call{ID: "b", Name: "write_file", Args: `{"path":"b.txt","content":"b by the child\n"}`})
		default:
			if beforeEnd != nil {
				beforeEnd()
			}
			w.Text("edited")
		}
	}
}

// blockFile turns the person's file into a folder, which no change can
// be written over.
func blockFile(t *testing.T, ws, name string) {
	t.Helper()
	if err := os.Remove(filepath.Join(ws, name)); err != nil {
		t.Error(err)
	}
	if err := os.MkdirAll(filepath.Join(ws, name, "inside"), 0o755); err != nil {
		t.Error(err)
	}
}

// TestApplyWritesNothingWhenAFileCannotBeApplied: a change whose second
// file cannot be applied (the person made it a folder) writes nothing,
// not even the first file, and says which file stopped it and why.
// Once the obstacle is gone the whole change applies.
func TestApplyWritesNothingWhenAFileCannotBeApplied(t *testing.T) {
	var ws string
	s, _ := newTestSession(t, twoFileChild(nil), func(c *engine.Config) {
		c.Worktrees.Root = t.TempDir()
		ws = c.Workspace
		sessiontest.WriteFile(t, ws, "a.txt", "a\n")
		sessiontest.WriteFile(t, ws, "b.txt", "b\n")
		sessiontest.GitRepo(t, ws)
	})
	log := sessiontest.RunTurn(t, s, "go", nil)
	f := sessiontest.Of[event.AgentFinished](log)
	if len(f) != 1 || f[0].Change == nil || f[0].Change.Files != 2 {
		t.Fatalf("finished %+v", f)
	}
	blockFile(t, ws, "b.txt")
	ctx := context.Background()
	_, err := s.ApplyChange(ctx, f[0].Agent, -1, -1, "")
	if err == nil || !strings.Contains(err.Error(), "b.txt is not a regular file") || !strings.HasSuffix(err.Error(), "; nothing was applied") {
		t.Fatalf("apply = %v", err)
	}
	if got, _ := os.ReadFile(filepath.Join(ws, "a.txt")); string(got) != "a\n" {
		t.Fatalf("a.txt was written though the change could not be applied: %q", got)
	}
	rv, err := s.Review(f[0].Agent)
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range rv.Files {
		if !file.Pending() {
			t.Errorf("%s is decided after a failed apply: %+v", file.Path, file)
		}
	}
	if err := os.RemoveAll(filepath.Join(ws, "b.txt")); err != nil {
		t.Fatal(err)
	}
	sessiontest.WriteFile(t, ws, "b.txt", "b\n")
	if c, err := s.ApplyChange(ctx, f[0].Agent, -1, -1, ""); err != nil || c != nil {
		t.Fatalf("apply again: %v %+v", err, c)
	}
	for name, want := range map[string]string{"a.txt": "a by the child\n", "b.txt": "b by the child\n"} {
		if got, _ := os.ReadFile(filepath.Join(ws, name)); string(got) != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
}

// TestHeadlessApplyWritesNothingWhenAFileCannotBeApplied: --worktrees apply-unverified of a change whose
// second file cannot be applied writes nothing, tells the parent so,
// and keeps the whole change on its branch.
func TestHeadlessApplyWritesNothingWhenAFileCannotBeApplied(t *testing.T) {
	var ws string
	s, _ := newTestSession(t, twoFileChild(func() { blockFile(t, ws, "b.txt") }), func(c *engine.Config) {
		c.Worktrees.Root = t.TempDir()
		c.Worktrees.Finish = child.FinishApplyUnverified
		ws = c.Workspace
		sessiontest.WriteFile(t, ws, "a.txt", "a\n")
		sessiontest.WriteFile(t, ws, "b.txt", "b\n")
		sessiontest.GitRepo(t, ws)
	})
	log := sessiontest.RunTurn(t, s, "go", nil)
	f := sessiontest.Of[event.AgentFinished](log)
	if len(f) != 1 || f[0].Change == nil || f[0].Change.State != event.ChangeKept || f[0].Change.Branch == "" {
		t.Fatalf("finished %+v", f)
	}
	sessiontest.Contains(t, "parent told", f[0].Result, "could not be applied, and nothing of it was written: apply b.txt: ")
	sessiontest.Contains(t, "parent told", f[0].Result, "b.txt is not a regular file")
	if got, _ := os.ReadFile(filepath.Join(ws, "a.txt")); string(got) != "a\n" {
		t.Fatalf("a.txt was written though the change was reported not applied: %q", got)
	}
}
