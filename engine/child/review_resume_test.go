package child_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/sessiontest"
	"github.com/seed-e4e525a6/baton/engine/transcript"
)

// writesTwoFiles has the main agent delegate one worktree child that adds
// a.txt and b.txt, then answer plainly.
func writesTwoFiles(r *llmtest.Request, w *llmtest.Writer) {
	done := len(sessiontest.ToolMessages(r))
	switch {
	case sessiontest.IsChild(r) && done == 0:
		w.ToolCalls(llmtest.Call{ID: "w1", Name: "write_file", Args: `{"path":"a.txt","content":"from the child A\n"}`},
			llmtest.Call{ID: "w2", Name: "write_file", Args: `{"path":"b.txt","content":"from the child B\n"}`})
	case sessiontest.IsChild(r):
		w.Text("wrote a and b")
	case done == 0 && sessiontest.LastIsUser(r, "write"):
		w.ToolCalls(llmtest.Call{ID: "t1", Name: "task",
			Args: `{"description":"write a and b","prompt":"Write a.txt and b.txt.","subagent_type":"general-purpose","isolation":"worktree"}`})
	default:
		w.Text("ok")
	}
}

// reviewWorld is a git workspace, its transcript store and a worktree
// root that outlive one session.
type reviewWorld struct {
	t                   *testing.T
	root, workspace, wt string
}

func newReviewWorld(t *testing.T) reviewWorld {
	t.Helper()
	w := reviewWorld{t: t, root: t.TempDir(), workspace: t.TempDir(), wt: t.TempDir()}
	if err := os.WriteFile(filepath.Join(w.workspace, "README"), []byte("hi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sessiontest.GitRepo(t, w.workspace)
	return w
}

// session starts a new session (resume false) or resumes the latest.
func (w reviewWorld) session(resume bool) *engine.Session {
	w.t.Helper()
	store := transcript.NewStore(w.root, nil)
	dir, err := store.Create(w.workspace, time.Now())
	if resume {
		dir, err = store.Latest(w.workspace)
	}
	if err != nil {
		w.t.Fatal(err)
	}
	s, _ := newTestSession(w.t, writesTwoFiles, func(c *engine.Config) {
		c.Workspace, c.Transcript, c.Worktrees.Root = w.workspace, dir, w.wt
	})
	return s
}

// childOf is the worktree child of a turn, its change waiting for review.
func childOf(t *testing.T, log *sessiontest.Turn) event.AgentID {
	t.Helper()
	for _, f := range sessiontest.Of[event.AgentFinished](log) {
		if f.Change != nil && f.Change.State == event.ChangePending {
			return f.Agent
		}
	}
	t.Fatal("no worktree child's change waits for review")
	return ""
}

// finished is the child's AgentFinished as a resumed session shows it.
func finished(t *testing.T, s *engine.Session) event.AgentFinished {
	t.Helper()
	for _, ev := range s.History() {
		if f, ok := ev.(event.AgentFinished); ok && f.Change != nil {
			return f
		}
	}
	t.Fatal("no worktree child in the history")
	return event.AgentFinished{}
}

// A change the person applied stays applied after --continue: the
// outcome is in the main transcript, so the resumed screen shows it and
// no review is offered again.
func TestResumeKeepsTheReviewOutcome(t *testing.T) {
	w := newReviewWorld(t)
	first := w.session(false)
	id := childOf(t, sessiontest.RunTurn(t, first, "write", nil))
	if _, err := first.ApplyChange(context.Background(), id, -1, -1, ""); err != nil {
		t.Fatal(err)
	}
	first.Close()

	again := w.session(true)
	var outcome *event.ReviewFinished
	for _, ev := range again.History() {
		if r, ok := ev.(event.ReviewFinished); ok && r.Agent == id {
			outcome = &r
		}
	}
	if outcome == nil || !strings.Contains(outcome.Summary, "applied a.txt, b.txt") {
		t.Fatalf("the resumed history lacks the review's outcome: %+v", outcome)
	}
	if _, err := again.Review(id); err == nil {
		t.Error("a reviewed change is offered for review again")
	}
}

// A change nobody finished reviewing is kept on its branch when baton
// quits; after --continue it is reviewable again, with what was already
// decided, and finishing the review lands the rest.
func TestResumeReopensAKeptChange(t *testing.T) {
	w := newReviewWorld(t)
	first := w.session(false)
	id := childOf(t, sessiontest.RunTurn(t, first, "write", nil))
	if _, err := first.ApplyChange(context.Background(), id, 0, -1, ""); err != nil { // a.txt only
		t.Fatal(err)
	}
	first.Close()
	if k := first.Kept(); len(k) != 1 || k[0].Branch == "" {
		t.Fatalf("the unreviewed change was not kept on a branch: %+v", k)
	}

	second := w.session(true)
	fin := finished(t, second)
	if fin.Change.State != event.ChangePending || !strings.Contains(fin.Change.Branch, string(id)) {
		t.Fatalf("the resumed line says %+v, want pending review on its branch", fin.Change)
	}
	rv, err := second.Review(id)
	if err != nil {
		t.Fatalf("the kept change cannot be reviewed after the resume: %v", err)
	}
	if len(rv.Files) != 2 || rv.Files[0].Hunks[0].Decision != event.DecisionApplied || rv.Files[1].Pending() == false {
		t.Fatalf("the review lost what was decided: %+v", rv.Files)
	}
	if _, err := second.ApplyChange(context.Background(), id, -1, -1, ""); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a.txt", "b.txt"} {
		if data, err := os.ReadFile(filepath.Join(w.workspace, name)); err != nil || !strings.Contains(string(data), "from the child") {
			t.Errorf("%s after the resumed review: %q %v", name, data, err)
		}
	}
	second.Close()

	third := w.session(true)
	if _, err := third.Review(id); err == nil {
		t.Error("the change is offered again after its review finished")
	}
}

// A kept change whose worktree was deleted says so on resume instead of
// offering a review that would fail.
func TestResumeSaysAKeptChangesWorktreeIsGone(t *testing.T) {
	w := newReviewWorld(t)
	first := w.session(false)
	sessiontest.RunTurn(t, first, "write", nil)
	first.Close()
	if err := os.RemoveAll(first.Kept()[0].Path); err != nil {
		t.Fatal(err)
	}
	again := w.session(true)
	if fin := finished(t, again); fin.Change.State != event.ChangeGone {
		t.Errorf("the resumed line says %+v, want its worktree gone", fin.Change)
	}
	if notes := strings.Join(again.ResumeNotes(), "\n"); !strings.Contains(notes, "can no longer be reviewed here: its worktree is gone") {
		t.Errorf("resume notes %q", notes)
	}
}
