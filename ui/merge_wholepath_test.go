package ui

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/permission"
)

// TestMergeTwoChangesWholePath: two worktree children change different
// lines of a.txt at once, each verified; tab in one's review opens the
// view across both, which merges them in a scratch worktree and verifies
// the result; one A applies both, and both lines say so.
func TestMergeTwoChangesWholePath(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte(numbered(20, nil)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "first"}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	srv := llmtest.NewServer(t, func(req *llmtest.Request, w *llmtest.Writer) {
		isChild := !slices.Contains(req.ToolNames(), child.TaskToolName)
		done := 0
		for _, m := range req.Body.Messages {
			if m.Role == "tool" {
				done++
			}
		}
		task := func(id, what string) llmtest.Call {
			return llmtest.Call{ID: id, Name: child.TaskToolName,
				Args: `{"description":"` + what + `","prompt":"` + what + `","subagent_type":"general-purpose","isolation":"worktree"}`}
		}
		switch {
		case !isChild && done == 0:
			w.ToolCalls(task("t1", "edit top"), task("t2", "edit bottom"))
		case !isChild:
			w.Text("Delegated.")
		case done == 0 && strings.Contains(req.LastUser(), "edit top"):
			w.ToolCalls(llmtest.Call{ID: "e1", Name: "edit_file", Args: `{"path":"a.txt","old_string":"line 2\n","new_string":"top\n"}`})
		case done == 0:
			w.ToolCalls(llmtest.Call{ID: "e1", Name: "edit_file", Args: `{"path":"a.txt","old_string":"line 19\n","new_string":"bottom\n"}`})
		default:
			w.Text("edited")
		}
	})
	s, err := engine.NewSession(context.Background(), engine.Config{Client: srv.Client(), Model: "gpt-4.1", Workspace: dir, Mode: permission.Yolo,
		Worktrees: child.WorktreeConfig{Root: t.TempDir(), Verify: []string{"test -f a.txt"}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	tm := teatest.NewTestModel(t, New(s, Options{Workspace: dir, Theme: "dark", Mode: "yolo"}), teatest.WithInitialTermSize(110, 40))
	t.Cleanup(func() {
		tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
		tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
		tm.WaitFinished(t, teatest.WithFinalTimeout(waitLimit))
	})
	tm.Type("edit both ends")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitForAll(t, tm, "edit top - done", "edit bottom - done", "pending review · verified ✓", "Delegated.")
	tm.Type("/subagents diff 1")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitForAll(t, tm, "0 of 1 decided", "tab merge all pending")
	tm.Send(tea.KeyMsg{Type: tea.KeyTab})
	waitForAll(t, tm, "Merge  2 changes wait for review", "2 of 2 chosen · 1 file · merge verified ✓", "order #1 → #2", "a.txt  #1 #2  overlap, merges cleanly")
	if read(t, dir, "a.txt") != numbered(20, nil) {
		t.Fatal("the merge preview or its verification touched the person's tree")
	}
	keys(tm, "A")
	waitForAll(t, tm, "edit top - done · +1 −1 in 1 file, applied a.txt", "edit bottom - done · +1 −1 in 1 file, applied a.txt")
	if got := read(t, dir, "a.txt"); got != numbered(20, map[int]string{2: "top", 19: "bottom"}) {
		t.Fatalf("a.txt:\n%s", got)
	}
}
