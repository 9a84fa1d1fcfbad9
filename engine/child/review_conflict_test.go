package child_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/sessiontest"
)

// editsThreeFiles has the main agent delegate one worktree child that
// rewrites the middle line of f.txt and g.txt and adds b.txt.
func editsThreeFiles(r *llmtest.Request, w *llmtest.Writer) {
	done := len(sessiontest.ToolMessages(r))
	switch {
	case sessiontest.IsChild(r) && done == 0:
		w.ToolCalls(llmtest.Call{ID: "w1", Name: "write_file", Args: `{"path":"f.txt","content":"one\nCHILD-F\nthree\n"}`},
			llmtest.Call{ID: "w2", Name: "write_file", Args: `{"path":"g.txt","content":"one\nCHILD-G\nthree\n"}`},
			llmtest.Call{ID: "w3", Name: "write_file", Args: `{"path":"b.txt","content":"new b\n"}`})
	case sessiontest.IsChild(r):
		w.Text("edited f, g and b")
	case done == 0 && sessiontest.LastIsUser(r, "edit"):
		w.ToolCalls(llmtest.Call{ID: "t1", Name: "task",
			Args: `{"description":"edit f g b","prompt":"Edit the files.","subagent_type":"general-purpose","isolation":"worktree"}`})
	default:
		w.Text("ok")
	}
}

// read returns a workspace file's text, "" when it does not exist.
func read(t *testing.T, ws, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(ws, name))
	if os.IsNotExist(err) {
		return ""
	} else if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// A worktree child's change that meets the person's own edits: applying
// a file both changed shows the conflict and writes nothing; the person
// then settles it with markers or with the child's side, skips the file
// they do not want, and the review ends once nothing is undecided: the
// main agent is told what was applied, skipped and marked, and the
// change cannot be applied twice.
func TestReviewSettlesConflictsAndSkips(t *testing.T) {
	ws := t.TempDir()
	for _, name := range []string{"f.txt", "g.txt"} {
		sessiontest.WriteFile(t, ws, name, "one\ntwo\nthree\n")
	}
	sessiontest.GitRepo(t, ws)
	s, srv := newTestSession(t, editsThreeFiles, func(c *engine.Config) { c.Workspace, c.Worktrees.Root = ws, t.TempDir() })
	id := childOf(t, sessiontest.RunTurn(t, s, "edit", nil))
	sessiontest.WriteFile(t, ws, "f.txt", "one\nMINE-F\nthree\n")
	sessiontest.WriteFile(t, ws, "g.txt", "one\nMINE-G\nthree\n")

	review, err := s.Review(id)
	if err != nil {
		t.Fatal(err)
	}
	index := map[string]int{}
	for i, f := range review.Files {
		index[f.Path] = i
	}
	if len(index) != 3 {
		t.Fatalf("review files %+v, want b.txt, f.txt and g.txt", review.Files)
	}
	ctx := context.Background()
	conflict, err := s.ApplyChange(ctx, id, index["f.txt"], -1, "")
	if err != nil || conflict == nil || conflict.Path != "f.txt" || len(conflict.Regions) != 1 {
		t.Fatalf("applying a file both changed: conflict %+v, %v", conflict, err)
	}
	if r := conflict.Regions[0]; !strings.Contains(r.Mine, "MINE-F") || !strings.Contains(r.Child, "CHILD-F") {
		t.Fatalf("the conflict shows %+v, want the person's and the child's line", r)
	}
	if got := read(t, ws, "f.txt"); got != "one\nMINE-F\nthree\n" {
		t.Fatalf("a conflict wrote f.txt: %q", got)
	}

	if err := s.SkipChange(id, index["b.txt"], -1); err != nil {
		t.Fatal(err)
	}
	if conflict, err := s.ApplyChange(ctx, id, index["g.txt"], -1, "child"); err != nil || conflict != nil {
		t.Fatalf("g.txt with the child's side: %+v, %v", conflict, err)
	}
	if conflict, err := s.ApplyChange(ctx, id, index["f.txt"], -1, "markers"); err != nil || conflict != nil {
		t.Fatalf("f.txt with markers: %+v, %v", conflict, err)
	}
	var done event.ReviewFinished
	sessiontest.ReadUntil(t, s, func(ev event.Event) bool {
		done, _ = ev.(event.ReviewFinished)
		return done.Agent == id
	})
	if got := read(t, ws, "g.txt"); got != "one\nCHILD-G\nthree\n" {
		t.Fatalf("g.txt after taking the child's side: %q", got)
	}
	if got := read(t, ws, "f.txt"); !strings.Contains(got, "<<<<<<<") || !strings.Contains(got, "MINE-F") || !strings.Contains(got, "CHILD-F") {
		t.Fatalf("f.txt after markers: %q", got)
	}
	if got := read(t, ws, "b.txt"); got != "" {
		t.Fatalf("a skipped file was written: %q", got)
	}
	for _, want := range []string{"g.txt", "b.txt", "f.txt"} {
		sessiontest.Contains(t, "review summary", done.Summary, want)
	}
	if _, err := s.ApplyChange(ctx, id, -1, -1, ""); err == nil {
		t.Fatal("a reviewed change was applied again")
	}
	sessiontest.RunTurn(t, s, "what happened?", nil)
	last := srv.Requests()[len(srv.Requests())-1]
	sessiontest.Contains(t, "what the main agent is told", strings.Join(userTexts(last), "\n"), done.Summary)
}

// userTexts are a request's user messages.
func userTexts(r *llmtest.Request) []string {
	var out []string
	for _, m := range r.Body.Messages {
		if m.Role == "user" {
			out = append(out, m.Content)
		}
	}
	return out
}
