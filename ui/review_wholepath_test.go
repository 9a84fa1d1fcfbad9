package ui

import (
	"context"
	"fmt"
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

// numbered is a file of n numbered lines, with some replaced.
func numbered(n int, change map[int]string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		if s, ok := change[i]; ok {
			b.WriteString(s + "\n")
		} else {
			fmt.Fprintf(&b, "line %d\n", i)
		}
	}
	return b.String()
}

// reviewSetup runs a turn in which one worktree child changes a.txt in
// two places and adds new.txt, and returns the program once the child's
// line says its change waits for review.
func reviewSetup(t *testing.T) (*teatest.TestModel, string) {
	t.Helper()
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
		switch {
		case !isChild && done == 0:
			w.ToolCalls(llmtest.Call{ID: "t1", Name: child.TaskToolName,
				Args: `{"description":"tidy a","prompt":"tidy a.txt","subagent_type":"general-purpose","isolation":"worktree"}`})
		case !isChild:
			w.Text("Delegated.")
		case done == 0:
			w.ToolCalls(llmtest.Call{ID: "e1", Name: "edit_file", Args: `{"path":"a.txt","old_string":"line 2\n","new_string":"child two\n"}`})
		case done == 1:
			w.ToolCalls(llmtest.Call{ID: "e2", Name: "edit_file", Args: `{"path":"a.txt","old_string":"line 18\n","new_string":"child eighteen\n"}`})
		case done == 2:
			w.ToolCalls(llmtest.Call{ID: "w1", Name: "write_file", Args: `{"path":"new.txt","content":"brand new\n"}`})
		default:
			w.Text("tidied")
		}
	})
	s, err := engine.NewSession(context.Background(), engine.Config{Client: srv.Client(), Model: "gpt-4.1", Workspace: dir, Mode: permission.Yolo,
		Worktrees: child.WorktreeConfig{Root: t.TempDir()}})
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
	tm.Type("tidy a")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitForAll(t, tm, "tidy a - done", "+3 −2 in 2 files, pending review", "Delegated.")
	return tm, dir
}

// read returns a workspace file, "" when it is missing.
func read(t *testing.T, dir, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return string(data)
}

// keys types each key as one message.
func keys(tm *teatest.TestModel, ks ...string) {
	for _, k := range ks {
		tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)})
	}
}

// TestReviewPerHunkAndFile: tab reaches the folded child, enter opens
// its review, one hunk is applied, the other skipped, the new file
// applied; the person's tree gets exactly that and the line says so.
// After y or n the cursor moves on to the next undecided item by itself.
func TestReviewPerHunkAndFile(t *testing.T) {
	tm, dir := reviewSetup(t)
	if read(t, dir, "a.txt") != numbered(20, nil) || read(t, dir, "new.txt") != "" {
		t.Fatal("the person's tree changed before the review")
	}
	tm.Send(tea.KeyMsg{Type: tea.KeyTab})
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitForAll(t, tm, "Review  [", "] tidy a", "M a.txt  +2 −2", "+child two", "-line 2", "A new.txt  +1 −0", "0 of 3 decided")
	keys(tm, "j", "y")
	waitFor(t, tm, "1 of 3 decided")
	keys(tm, "n")
	waitFor(t, tm, "2 of 3 decided")
	keys(tm, "y")
	waitForAll(t, tm, "applied a.txt (1 of 2 hunks), new.txt", "+3 −2 in 2 files, applied a.txt (1 of")
	if got := read(t, dir, "a.txt"); got != numbered(20, map[int]string{2: "child two"}) {
		t.Fatalf("a.txt:\n%s", got)
	}
	if got := read(t, dir, "new.txt"); got != "brand new\n" {
		t.Fatalf("new.txt = %q", got)
	}
}

// TestReviewApplyAllThroughConflict: the person changed a line the child
// changed too; apply all stops on the conflict showing both sides, c
// takes the child's and the rest follows.
func TestReviewApplyAllThroughConflict(t *testing.T) {
	tm, dir := reviewSetup(t)
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte(numbered(20, map[int]string{2: "my two"})), 0o644); err != nil {
		t.Fatal(err)
	}
	tm.Type("/subagents diff 1")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "0 of 3 decided")
	keys(tm, "A")
	waitForAll(t, tm, "Conflict in a.txt", "my two", "child two", "c take the child's")
	keys(tm, "c")
	waitFor(t, tm, "applied a.txt, new.txt")
	if got := read(t, dir, "a.txt"); got != numbered(20, map[int]string{2: "child two", 18: "child eighteen"}) {
		t.Fatalf("a.txt:\n%s", got)
	}
}

// TestReviewDiscardAll: D asks first; any key but y keeps the change
// (and does nothing else: q does not close the review), y discards it
// and leaves the person's tree as it was.
func TestReviewDiscardAll(t *testing.T) {
	tm, dir := reviewSetup(t)
	tm.Type("/subagents diff 1")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "0 of 3 decided")
	keys(tm, "D")
	waitForAll(t, tm, "Discard every undecided file and hunk?", "y discard everything undecided")
	keys(tm, "q")
	waitFor(t, tm, "D discard all…") // the review's own keys again, not closed
	if read(t, dir, "a.txt") != numbered(20, nil) || read(t, dir, "new.txt") != "" {
		t.Fatal("a key other than y discarded or applied something")
	}
	keys(tm, "D")
	waitFor(t, tm, "Discard every undecided file and hunk?")
	keys(tm, "y")
	waitForAll(t, tm, "discarded it; nothing was applied", "in 2 files, discarded it")
	if read(t, dir, "a.txt") != numbered(20, nil) || read(t, dir, "new.txt") != "" {
		t.Fatal("discard changed the person's tree")
	}
}

// TestReviewFastKeysEachMove: two j typed faster than the terminal is
// read arrive as one message; both move, so y applies the second hunk.
func TestReviewFastKeysEachMove(t *testing.T) {
	tm, dir := reviewSetup(t)
	tm.Type("/subagents diff 1")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "0 of 3 decided")
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("jj")})
	keys(tm, "y")
	waitFor(t, tm, "1 of 3 decided")
	if got := read(t, dir, "a.txt"); got != numbered(20, map[int]string{18: "child eighteen"}) {
		t.Fatalf("y after jj applied something else than the second hunk; a.txt:\n%s", got)
	}
}
