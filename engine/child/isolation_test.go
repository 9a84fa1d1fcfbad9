package child_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/permission"
	"github.com/seed-e4e525a6/baton/engine/sandbox"
	"github.com/seed-e4e525a6/baton/engine/sessiontest"
)

// halves is a file of 30 "A" lines and 30 "B" lines, each "todo", with
// one line between them: a three-way merge, git's included, reads
// changes to touching lines as a conflict.
func halves() string {
	var lines []string
	for _, who := range []string{"A", "B"} {
		for i := range editsPerChild {
			lines = append(lines, fmt.Sprintf("%s%02d todo", who, i))
		}
		if who == "A" {
			lines = append(lines, "-- middle --")
		}
	}
	return strings.Join(lines, "\n") + "\n"
}

// editingChildren scripts a main agent that delegates "edit A" and "edit
// B" at once, each child making 30 edits to shared.txt after reading the
// uncommitted notes.txt, and records the main agent's requests.
func editingChildren(mainReqs *[]*llmtest.Request, mu *sync.Mutex) llmtest.Responder {
	return func(r *llmtest.Request, w *llmtest.Writer) {
		if !sessiontest.IsChild(r) {
			mu.Lock()
			*mainReqs = append(*mainReqs, r)
			mu.Unlock()
			if len(sessiontest.ToolMessages(r)) == 0 && strings.Contains(r.Body.Messages[len(r.Body.Messages)-1].Content, "edit both") {
				w.ToolCalls(sessiontest.TaskCall("a", "general-purpose", "edit A", "edit A"), sessiontest.TaskCall("b", "general-purpose", "edit B", "edit B"))
				return
			}
			w.Text("ok")
			return
		}
		who := strings.TrimPrefix(r.Body.Messages[1].Content, "edit ")
		done := len(sessiontest.ToolMessages(r))
		switch {
		case done == 0:
			w.ToolCalls(llmtest.Call{ID: "r", Name: "read_file", Args: `{"path":"notes.txt"}`})
		case done <= editsPerChild:
			n := done - 1
			w.ToolCalls(llmtest.Call{ID: fmt.Sprintf("e%d", n), Name: "edit_file",
				Args: fmt.Sprintf(`{"path":"shared.txt","old_string":"%s%02d todo","new_string":"%s%02d done"}`, who, n, who, n)})
		default:
			w.Text("edited; notes said: " + sessiontest.ToolMessages(r)[0])
		}
	}
}

// TestParallelWritersInWorktrees: two children edit one file at once,
// each in its own worktree started from the person's uncommitted state;
// every edit of both succeeds, the person's tree is untouched until the
// changes are applied, both apply cleanly in either order, the worktrees
// go, and the main agent is told before its next step.
func TestParallelWritersInWorktrees(t *testing.T) {
	var mainReqs []*llmtest.Request
	var mu sync.Mutex
	root := t.TempDir()
	s, _ := newTestSession(t, editingChildren(&mainReqs, &mu), func(c *engine.Config) {
		c.Limits.ChildStepsWrite = editsPerChild + 5
		c.Worktrees.Root = root
		sessiontest.WriteFile(t, c.Workspace, "shared.txt", halves())
		sessiontest.WriteFile(t, c.Workspace, "notes.txt", "committed\n")
		sessiontest.GitRepo(t, c.Workspace)
		sessiontest.WriteFile(t, c.Workspace, "notes.txt", "uncommitted note\n")
	})
	log := sessiontest.RunTurn(t, s, "edit both halves", nil)
	if log.End.Status != event.StatusCompleted {
		t.Fatalf("turn ended %s", log.End.Status)
	}
	for _, ev := range sessiontest.Of[event.ToolFinished](log) {
		if ev.Agent != event.MainAgent && ev.IsError {
			t.Errorf("%s %s failed: %s", ev.Agent, ev.CallID, ev.Output)
		}
	}
	finished := sessiontest.Of[event.AgentFinished](log)
	if len(finished) != 2 {
		t.Fatalf("%d children finished", len(finished))
	}
	for _, f := range finished {
		if f.Change == nil || f.Change.Line() != "+30 −30 in 1 file" || f.Change.State != "pending" {
			t.Fatalf("%s change %+v", f.Agent, f.Change)
		}
		sessiontest.Contains(t, "child result", f.Result, "pending the person's review")
		sessiontest.Contains(t, "child text", f.Text, "uncommitted note")
		if !strings.HasPrefix(f.Change.Worktree, root) {
			t.Errorf("worktree %s is not in the state folder %s", f.Change.Worktree, root)
		}
	}
	if got, _ := os.ReadFile(filepath.Join(s.Workspace(), "shared.txt")); string(got) != halves() {
		t.Fatalf("the person's file changed before any apply:\n%s", got)
	}
	ctx := context.Background()
	for _, f := range []event.AgentFinished{finished[1], finished[0]} {
		if c, err := s.ApplyChange(ctx, f.Agent, -1, -1, ""); err != nil || c != nil {
			t.Fatalf("apply %s: %v %+v", f.Agent, err, c)
		}
		if _, err := os.Stat(f.Change.Worktree); !os.IsNotExist(err) {
			t.Errorf("worktree %s still there after apply: %v", f.Change.Worktree, err)
		}
	}
	got, _ := os.ReadFile(filepath.Join(s.Workspace(), "shared.txt"))
	if n := strings.Count(string(got), " done"); n != 2*editsPerChild {
		t.Fatalf("%d of %d edits applied:\n%s", n, 2*editsPerChild, got)
	}
	if notes, _ := os.ReadFile(filepath.Join(s.Workspace(), "notes.txt")); string(notes) != "uncommitted note\n" {
		t.Fatalf("the person's uncommitted file changed: %q", notes)
	}
	sessiontest.RunTurn(t, s, "what happened?", nil)
	mu.Lock()
	last := mainReqs[len(mainReqs)-1]
	mu.Unlock()
	var told []string
	for _, m := range last.Body.Messages {
		if strings.HasPrefix(m.Content, "[baton] [person: reviewed") {
			told = append(told, m.Content)
		}
	}
	if len(told) != 2 || !strings.Contains(told[0], "applied shared.txt") {
		t.Fatalf("the main agent was told %q", told)
	}
	if msgs := last.Body.Messages; msgs[len(msgs)-1].Content != "what happened?" {
		t.Fatalf("the review notes came after the person's prompt: last message %q", msgs[len(msgs)-1].Content)
	}
}

// TestWorktreeRefusedOutsideGit: asked for a worktree outside a
// repository, the card says shared and why, and the child runs in the
// workspace.
func TestWorktreeRefusedOutsideGit(t *testing.T) {
	s, _ := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		if !sessiontest.IsChild(r) {
			if len(sessiontest.ToolMessages(r)) == 0 {
				w.ToolCalls(llmtest.Call{ID: "a", Name: "task", Args: `{"description":"write","prompt":"write it","subagent_type":"general-purpose","isolation":"worktree"}`})
				return
			}
			w.Text("done")
			return
		}
		if len(sessiontest.ToolMessages(r)) == 0 {
			w.ToolCalls(llmtest.Call{ID: "w", Name: "write_file", Args: `{"path":"out.txt","content":"hi\n"}`})
			return
		}
		w.Text("wrote")
	}, func(c *engine.Config) {
		c.Mode = permission.Ask
		c.Worktrees.Root = t.TempDir()
	})
	var preview *event.DelegationPreview
	log := sessiontest.RunTurn(t, s, "go", func(r *event.ApprovalRequest) event.Answer {
		if r.Delegation != nil {
			preview = r.Delegation
		}
		return event.Answer{Decision: event.Allow}
	})
	if preview == nil || preview.Isolation != "shared" || !strings.Contains(preview.IsolationNote, "not in a git repository") {
		t.Fatalf("card: %+v", preview)
	}
	if got, _ := os.ReadFile(filepath.Join(s.Workspace(), "out.txt")); string(got) != "hi\n" {
		t.Fatalf("the shared child's write is missing: %q", got)
	}
	noted := false
	for _, n := range sessiontest.Of[event.Notice](log) {
		noted = noted || strings.Contains(n.Text, "worktree isolation refused")
	}
	if f := sessiontest.Of[event.AgentFinished](log); !noted || len(f) != 1 || f[0].Change != nil {
		t.Fatalf("notice %v, finished %+v", noted, f)
	}
}

// TestWorktreeChildCommandsConfined: a worktree child's commands run in
// its worktree and the kernel refuses their writes to the person's tree.
func TestWorktreeChildCommandsConfined(t *testing.T) {
	if !sandbox.Available() {
		t.Skip("no Landlock here: " + sandbox.Unavailable())
	}
	var ws string
	s, _ := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case !sessiontest.IsChild(r) && len(sessiontest.ToolMessages(r)) == 0:
			w.ToolCalls(llmtest.Call{ID: "a", Name: "task", Args: `{"description":"cmd","prompt":"run it","subagent_type":"general-purpose","isolation":"worktree"}`})
		case !sessiontest.IsChild(r):
			w.Text("done")
		case len(sessiontest.ToolMessages(r)) == 0:
			w.ToolCalls(llmtest.Call{ID: "c", Name: "run_command", Args: fmt.Sprintf(`{"command":"echo made > made.txt; echo y > %s/escape.txt"}`, ws)})
		default:
			w.Text("ran")
		}
	}, func(c *engine.Config) {
		c.Worktrees.Root = t.TempDir()
		ws = c.Workspace
		sessiontest.WriteFile(t, ws, "a.txt", "a\n")
		sessiontest.GitRepo(t, ws)
		// The test's folders all lie in the temp folder, which commands
		// may write; a temp folder of its own keeps that grant apart.
		c.Sandbox = sandbox.Settings{Env: map[string]string{"HOME": t.TempDir(), "TMPDIR": t.TempDir()}}.Policy(ws)
	})
	log := sessiontest.RunTurn(t, s, "go", nil)
	if _, err := os.Stat(filepath.Join(ws, "escape.txt")); !os.IsNotExist(err) {
		t.Fatalf("the worktree child wrote the person's tree: %v", err)
	}
	f := sessiontest.Of[event.AgentFinished](log)
	if len(f) != 1 || f[0].Change == nil || f[0].Change.Files != 1 {
		t.Fatalf("finished %+v", f)
	}
	rv, err := s.Review(f[0].Agent)
	if err != nil || len(rv.Files) != 1 || rv.Files[0].Path != "made.txt" {
		t.Fatalf("review %+v %v", rv, err)
	}
}

// TestWorktreeFailureStopsTheChild: when a child's worktree cannot be
// made, for real (a file where the state folder should be, or a git that
// fails to add the worktree), the child is not started and the task call
// says why; nothing it would have written lands in the person's tree.
func TestWorktreeFailureStopsTheChild(t *testing.T) {
	for name, breakIt := range map[string]func(t *testing.T, c *engine.Config){
		"state folder is a file": func(t *testing.T, c *engine.Config) {
			c.Worktrees.Root = filepath.Join(t.TempDir(), "worktrees")
			sessiontest.WriteFile(t, filepath.Dir(c.Worktrees.Root), "worktrees", "not a folder\n")
		},
		"git cannot add a worktree": func(t *testing.T, c *engine.Config) {
			c.Worktrees.Root = t.TempDir()
			sessiontest.WriteFile(t, c.Workspace, ".git/worktrees", "not a folder\n")
		},
	} {
		t.Run(name, func(t *testing.T) {
			s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
				switch {
				case !sessiontest.IsChild(r) && len(sessiontest.ToolMessages(r)) == 0:
					w.ToolCalls(llmtest.Call{ID: "a", Name: "task", Args: `{"description":"write","prompt":"write it","subagent_type":"general-purpose","isolation":"worktree"}`})
				case !sessiontest.IsChild(r):
					w.Text("done")
				case len(sessiontest.ToolMessages(r)) == 0:
					w.ToolCalls(llmtest.Call{ID: "w", Name: "write_file", Args: `{"path":"out.txt","content":"unreviewed\n"}`})
				default:
					w.Text("wrote")
				}
			}, func(c *engine.Config) {
				sessiontest.WriteFile(t, c.Workspace, "a.txt", "a\n")
				sessiontest.GitRepo(t, c.Workspace)
				breakIt(t, c)
			})
			log := sessiontest.RunTurn(t, s, "go", nil)
			if _, err := os.Stat(filepath.Join(s.Workspace(), "out.txt")); !os.IsNotExist(err) {
				t.Fatalf("the child wrote the person's tree: %v", err)
			}
			for _, r := range srv.Requests() {
				if sessiontest.IsChild(r) {
					t.Fatal("the child ran without its worktree")
				}
			}
			var result *event.ToolFinished
			for _, ev := range sessiontest.Of[event.ToolFinished](log) {
				if ev.CallID == "a" {
					result = &ev
				}
			}
			if result == nil || !result.IsError || !strings.Contains(result.Output, "worktree isolation failed, so the sub-agent was not started") {
				t.Fatalf("task result: %+v", result)
			}
			if started := sessiontest.Of[event.AgentStarted](log); len(started) != 0 {
				t.Fatalf("%d children started", len(started))
			}
		})
	}
}
