package ui

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/permission"
	"github.com/seed-e4e525a6/baton/engine/transcript"
)

// resumeWorld is a repository whose worktree child changes a.txt, with
// the transcripts and worktrees that outlive one session.
type resumeWorld struct {
	dir, store, worktrees string
	srv                   *llmtest.Server
}

func newResumeWorld(t *testing.T) resumeWorld {
	t.Helper()
	w := resumeWorld{dir: t.TempDir(), store: t.TempDir(), worktrees: t.TempDir()}
	if err := os.WriteFile(filepath.Join(w.dir, "a.txt"), []byte(numbered(20, nil)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "first"}} {
		if out, err := exec.Command("git", append([]string{"-C", w.dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	w.srv = llmtest.NewServer(t, func(req *llmtest.Request, wr *llmtest.Writer) {
		isChild := !slices.Contains(req.ToolNames(), child.TaskToolName)
		done := 0
		for _, m := range req.Body.Messages {
			if m.Role == "tool" {
				done++
			}
		}
		switch {
		case !isChild && done == 0:
			wr.ToolCalls(llmtest.Call{ID: "t1", Name: child.TaskToolName,
				Args: `{"description":"tidy a","prompt":"tidy a.txt","subagent_type":"general-purpose","isolation":"worktree"}`})
		case !isChild:
			wr.Text("Delegated.")
		case done == 0:
			wr.ToolCalls(llmtest.Call{ID: "e1", Name: "edit_file", Args: `{"path":"a.txt","old_string":"line 2\n","new_string":"child two\n"}`})
		default:
			wr.Text("tidied")
		}
	})
	return w
}

// session starts a session in the world, new or resuming the latest.
func (w resumeWorld) session(t *testing.T, resume bool) *engine.Session {
	t.Helper()
	store := transcript.NewStore(w.store, nil)
	dir, err := store.Create(w.dir, time.Now())
	if resume {
		dir, err = store.Latest(w.dir)
	}
	if err != nil {
		t.Fatal(err)
	}
	s, err := engine.NewSession(context.Background(), engine.Config{Client: w.srv.Client(), Model: "gpt-4.1", Workspace: w.dir,
		Mode: permission.Yolo, Transcript: dir, Worktrees: child.WorktreeConfig{Root: w.worktrees}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// delegateAndLeave runs the turn whose child changes a.txt, without a
// screen, and returns the child's id once the turn ended.
func (w resumeWorld) delegateAndLeave(t *testing.T, s *engine.Session) event.AgentID {
	t.Helper()
	if err := s.Submit("tidy a"); err != nil {
		t.Fatal(err)
	}
	var id event.AgentID
	for ev := range s.Events() {
		if f, ok := ev.(event.AgentFinished); ok && f.Change != nil {
			id = f.Agent
		}
		if e, ok := ev.(event.TurnEnded); ok && e.Agent == event.MainAgent {
			break
		}
	}
	if id == "" {
		t.Fatal("no worktree child finished")
	}
	return id
}

// screenOf runs the UI on a resumed session.
func screenOf(t *testing.T, s *engine.Session, dir string) *teatest.TestModel {
	t.Helper()
	tm := teatest.NewTestModel(t, New(s, Options{Workspace: dir, Theme: "dark", Mode: "yolo"}), teatest.WithInitialTermSize(110, 40))
	t.Cleanup(func() {
		tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
		tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
		tm.WaitFinished(t, teatest.WithFinalTimeout(waitLimit))
		s.Close()
	})
	return tm
}

// After --continue an applied change reads as applied, and tab offers no
// review of it.
func TestResumedScreenShowsTheReviewOutcome(t *testing.T) {
	w := newResumeWorld(t)
	first := w.session(t, false)
	id := w.delegateAndLeave(t, first)
	if _, err := first.ApplyChange(context.Background(), id, -1, -1, ""); err != nil {
		t.Fatal(err)
	}
	first.Close()

	tm := screenOf(t, w.session(t, true), w.dir)
	waitForAll(t, tm, "tidy a - done", "+1 −1 in 1 file, applied a.txt")
	tm.Send(tea.KeyMsg{Type: tea.KeyTab})
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	tm.Type("/subagents diff 1")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "#1 general-purpose-1 has no change waiting for review")
}

// A change left unreviewed is kept on its branch at the quit; after
// --continue its line says it waits for review, and the review opens and
// applies it.
func TestResumedScreenReviewsAKeptChange(t *testing.T) {
	w := newResumeWorld(t)
	first := w.session(t, false)
	w.delegateAndLeave(t, first)
	first.Close()

	tm := screenOf(t, w.session(t, true), w.dir)
	waitForAll(t, tm, "tidy a - done", "+1 −1 in 1 file, pending review")
	tm.Send(tea.KeyMsg{Type: tea.KeyTab})
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitForAll(t, tm, "Review  [", "M a.txt", "kept on baton/", "0 of 1 decided")
	keys(tm, "A")
	waitFor(t, tm, "applied a.txt")
	if got := read(t, w.dir, "a.txt"); got != numbered(20, map[int]string{2: "child two"}) {
		t.Fatalf("a.txt after the resumed review:\n%s", got)
	}
	if strings.Contains(read(t, w.dir, "a.txt"), "<<<<<<<") {
		t.Fatal("conflict markers")
	}
}
