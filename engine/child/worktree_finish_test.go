package child_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/sessiontest"
)

// worktreeWriter has the main agent delegate one worktree child, which
// writes new.txt unless write is false, then answers; the main agent then
// sums up.
func worktreeWriter(write bool) llmtest.Responder {
	return func(r *llmtest.Request, w *llmtest.Writer) {
		done := len(sessiontest.ToolMessages(r))
		switch {
		case sessiontest.IsChild(r) && done == 0 && write:
			w.ToolCalls(llmtest.Call{ID: "w1", Name: "write_file", Args: `{"path":"new.txt","content":"from the child\n"}`})
		case sessiontest.IsChild(r):
			w.Text("finished")
		case done == 0:
			w.ToolCalls(llmtest.Call{ID: "t1", Name: child.TaskToolName,
				Args: `{"description":"add new.txt","prompt":"Add new.txt.","subagent_type":"general-purpose","isolation":"worktree"}`})
		default:
			w.Text("ok")
		}
	}
}

// runWorktreeChild runs one worktree child in a fresh repository with
// --worktrees finish and returns the session, the workspace, what the
// main agent was told and the child's end.
func runWorktreeChild(t *testing.T, finish string, write bool) (*engine.Session, string, string, event.AgentFinished) {
	t.Helper()
	ws := t.TempDir()
	sessiontest.WriteFile(t, ws, "README", "hi\n")
	sessiontest.GitRepo(t, ws)
	s, srv := newTestSession(t, worktreeWriter(write), func(c *engine.Config) {
		c.Workspace, c.Worktrees.Root, c.Worktrees.Finish = ws, t.TempDir(), finish
	})
	ended := sessiontest.Of[event.AgentFinished](sessiontest.RunTurn(t, s, "go", nil))
	if len(ended) != 1 || ended[0].Change == nil {
		t.Fatalf("the worktree child ended %+v", ended)
	}
	told := sessiontest.ToolMessages(srv.Requests()[len(srv.Requests())-1])
	return s, ws, strings.Join(told, "\n"), ended[0]
}

// Headless --worktrees keep leaves a child's change committed on a
// branch of its own in its worktree, out of the person's tree, and says
// where; the session lists it among the kept worktrees.
func TestWorktreesKeepLeavesTheChangeOnABranch(t *testing.T) {
	s, ws, told, end := runWorktreeChild(t, child.FinishKeep, true)
	if end.Change.State != event.ChangeKept || end.Change.Branch == "" {
		t.Fatalf("the change ended %+v, want kept on a branch", end.Change)
	}
	sessiontest.Contains(t, "what the main agent is told", told, "was not applied to the working tree; it is kept in the worktree")
	sessiontest.Contains(t, "what the main agent is told", told, "on branch "+end.Change.Branch)
	if _, err := os.Stat(filepath.Join(ws, "new.txt")); !os.IsNotExist(err) {
		t.Fatalf("a kept change reached the person's tree: %v", err)
	}
	kept := s.Kept()
	if len(kept) != 1 || kept[0].Branch != end.Change.Branch || kept[0].Agent != end.Agent {
		t.Fatalf("kept %+v", kept)
	}
	out, err := exec.Command("git", "-C", ws, "show", end.Change.Branch+":new.txt").CombinedOutput()
	if err != nil || string(out) != "from the child\n" {
		t.Fatalf("the branch %s holds %q (%v)", end.Change.Branch, out, err)
	}
}

// Headless --worktrees discard drops a child's change and its worktree
// and says so; nothing reaches the person's tree or stays kept.
func TestWorktreesDiscardDropsTheChange(t *testing.T) {
	s, ws, told, end := runWorktreeChild(t, child.FinishDiscard, true)
	if end.Change.State != event.ChangeReviewed || end.Change.Worktree != "" {
		t.Fatalf("the change ended %+v, want discarded", end.Change)
	}
	sessiontest.Contains(t, "what the main agent is told", told, "was discarded, as --worktrees discard asks.")
	if _, err := os.Stat(filepath.Join(ws, "new.txt")); !os.IsNotExist(err) {
		t.Fatalf("a discarded change reached the person's tree: %v", err)
	}
	if kept := s.Kept(); len(kept) != 0 {
		t.Fatalf("a discarded change is kept: %+v", kept)
	}
}

// A worktree child that changed nothing leaves no worktree and nothing
// to review, and the main agent is told so.
func TestWorktreeChildThatChangedNothing(t *testing.T) {
	s, _, told, end := runWorktreeChild(t, child.FinishReview, false)
	if end.Change.State != event.ChangeNone || end.Change.Worktree != "" {
		t.Fatalf("the change ended %+v, want none", end.Change)
	}
	sessiontest.Contains(t, "what the main agent is told", told, "It changed no files.")
	if _, err := s.Review(end.Agent); err == nil {
		t.Fatal("a child that changed nothing has a review")
	}
}

// A change nobody reviewed before the session closed is never lost: it
// is committed on the child's branch, kept in its worktree, and listed
// among the kept worktrees.
func TestUnreviewedChangeIsKeptWhenTheSessionCloses(t *testing.T) {
	s, ws, _, end := runWorktreeChild(t, child.FinishReview, true)
	if end.Change.State != event.ChangePending {
		t.Fatalf("the change ended %+v, want pending review", end.Change)
	}
	if kept := s.Kept(); len(kept) != 0 {
		t.Fatalf("kept %+v before the session closed", kept)
	}
	s.Close()
	kept := s.Kept()
	if len(kept) != 1 || kept[0].Agent != end.Agent || kept[0].Branch == "" || kept[0].Path != end.Change.Worktree {
		t.Fatalf("kept %+v after the session closed", kept)
	}
	out, err := exec.Command("git", "-C", ws, "show", kept[0].Branch+":new.txt").CombinedOutput()
	if err != nil || string(out) != "from the child\n" {
		t.Fatalf("the branch %s holds %q (%v)", kept[0].Branch, out, err)
	}
}

// Worktrees live under the XDG state folder, else under HOME's; a
// relative folder counts as none, and with neither there is no root.
func TestDefaultWorktreeRoot(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"XDG_STATE_HOME": "/state", "HOME": "/home/p"}, "/state/baton/worktrees"},
		{map[string]string{"XDG_STATE_HOME": "state", "HOME": "/home/p"}, "/home/p/.local/state/baton/worktrees"},
		{map[string]string{"HOME": "home"}, ""},
		{nil, ""},
	} {
		if got := child.DefaultWorktreeRoot(func(k string) string { return c.env[k] }); got != c.want {
			t.Errorf("DefaultWorktreeRoot(%v) = %q, want %q", c.env, got, c.want)
		}
	}
}
