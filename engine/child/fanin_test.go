package child_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/sessiontest"
)

// tenLines is f.txt before any child changes it.
const tenLines = "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\n"

// withLine is tenLines with line n replaced.
func withLine(n int, text string) string {
	lines := strings.Split(strings.TrimSuffix(tenLines, "\n"), "\n")
	lines[n-1] = text
	return strings.Join(lines, "\n") + "\n"
}

// twoWriters scripts a main agent that delegates two worktree children
// in one message, "child one" and "child two", each writing f.txt as
// given (with its own verify command, when set), and records what the
// main agent reads in its requests after them.
type twoWriters struct {
	one, two             string
	verifyOne, verifyTwo string
	mu                   sync.Mutex
	mainSaw              []string
}

func (tw *twoWriters) respond(r *llmtest.Request, w *llmtest.Writer) {
	done := len(sessiontest.ToolMessages(r))
	task := func(id, prompt, verify string) llmtest.Call {
		extra := ""
		if verify != "" {
			extra = `,"verify":` + quote(verify)
		}
		return llmtest.Call{ID: id, Name: "task", Args: `{"description":"` + prompt + `","prompt":"` + prompt + `","subagent_type":"general-purpose","isolation":"worktree"` + extra + `}`}
	}
	switch {
	case !sessiontest.IsChild(r) && done == 0:
		w.ToolCalls(task("t1", "child one", tw.verifyOne), task("t2", "child two", tw.verifyTwo))
	case !sessiontest.IsChild(r):
		tw.mu.Lock()
		for _, m := range r.Body.Messages {
			tw.mainSaw = append(tw.mainSaw, m.Content)
		}
		tw.mu.Unlock()
		w.Text("ok")
	case done == 0:
		content := tw.one
		if strings.Contains(r.LastUser(), "child two") {
			content = tw.two
		}
		w.ToolCalls(llmtest.Call{ID: "w", Name: "write_file", Args: `{"path":"f.txt","content":` + quote(content) + `}`})
	default:
		w.Text("edited")
	}
}

// saw is everything the main agent read after its children.
func (tw *twoWriters) saw() string {
	tw.mu.Lock()
	defer tw.mu.Unlock()
	return strings.Join(tw.mainSaw, "\n")
}

// quote is s as a JSON string.
func quote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}

// runTwo runs tw's two children in a repository holding f.txt, with
// --worktrees finish ("" reviews), and returns the session, the
// workspace and the children's endings by description.
func runTwo(t *testing.T, tw *twoWriters, finish string, verifyTimeout time.Duration) (*engine.Session, string, map[string]event.AgentFinished) {
	t.Helper()
	var ws string
	s, _ := newTestSession(t, tw.respond, func(c *engine.Config) {
		c.Worktrees.Root = t.TempDir()
		c.Worktrees.Finish = finish
		c.Limits.VerifyTimeout = verifyTimeout
		ws = c.Workspace
		sessiontest.WriteFile(t, ws, "f.txt", tenLines)
		sessiontest.GitRepo(t, ws)
	})
	log := sessiontest.RunTurn(t, s, "go", nil)
	out := map[string]event.AgentFinished{}
	for _, f := range sessiontest.Of[event.AgentFinished](log) {
		out[f.Description] = f
	}
	if len(out) != 2 || out["child one"].Change == nil || out["child two"].Change == nil {
		t.Fatalf("finished %+v", out)
	}
	return s, ws, out
}

// personFile reads the person's f.txt.
func personFile(t *testing.T, ws string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(ws, "f.txt"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// bothChanged fails when the merged result holds both changed lines: it
// passes on each change alone.
const bothChanged = `test "$(grep -c CHANGED f.txt)" -lt 2`

// TestFanInConflictingChangesEachPass: two changes that each pass their
// own verification but change the same line: the preview merges the
// first and leaves the second out, naming the file and the change it
// clashes with; headless apply applies neither and says why.
func TestFanInConflictingChangesEachPass(t *testing.T) {
	t.Parallel() // waits out a real bound; overlaps the others that do
	tw := &twoWriters{one: withLine(2, "one"), two: withLine(2, "two"), verifyOne: "true", verifyTwo: "true"}
	s, ws, fin := runTwo(t, tw, "", 0)
	one, two := fin["child one"].Agent, fin["child two"].Agent
	for _, f := range fin {
		if v := f.Change.Verify; v == nil || !v.Passed {
			t.Fatalf("own verification of %s: %+v", f.Agent, v)
		}
	}
	view, err := s.PreviewFanIn(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(view.Order) != 1 || view.Order[0] != one || len(view.Left) != 1 || view.Left[0].Agent != two ||
		view.Left[0].Path != "f.txt" || len(view.Left[0].With) != 1 || view.Left[0].With[0] != one {
		t.Fatalf("preview %+v", view)
	}
	if len(view.Files) != 1 || len(view.Files[0].By) != 2 || len(view.Files[0].Conflicting) != 1 {
		t.Fatalf("files %+v", view.Files)
	}
	if personFile(t, ws) != tenLines {
		t.Fatal("the preview touched the person's tree")
	}

	tw = &twoWriters{one: withLine(2, "one"), two: withLine(2, "two"), verifyOne: "true", verifyTwo: "true"}
	s, ws, _ = runTwo(t, tw, child.FinishApply, 0)
	merges := s.Merges()
	if len(merges) != 1 || !merges[0].Failed || len(merges[0].Applied) != 0 || len(merges[0].Kept) != 2 ||
		!strings.Contains(merges[0].Reason, "the changes conflict") || !strings.Contains(merges[0].Reason, "in f.txt") {
		t.Fatalf("merges %+v", merges)
	}
	if personFile(t, ws) != tenLines {
		t.Fatalf("a failing merge changed the person's tree:\n%s", personFile(t, ws))
	}
	if len(s.Kept()) != 2 {
		t.Fatalf("kept %+v", s.Kept())
	}
	sessiontest.Contains(t, "parent told", tw.saw(), "--worktrees apply applied none of the changes")
}

// TestFanInMergeFailsVerification: two changes that merge cleanly and
// each pass their own verification, but whose merged result fails it.
// The merge is verified in a scratch worktree, never the person's tree;
// it is not applied with one key; deliberately unverified it is, and
// the parent is told so. Headless apply applies neither.
func TestFanInMergeFailsVerification(t *testing.T) {
	t.Parallel() // waits out a real bound; overlaps the others that do
	tw := &twoWriters{one: withLine(2, "CHANGED one"), two: withLine(9, "CHANGED two"), verifyOne: bothChanged, verifyTwo: bothChanged}
	s, ws, fin := runTwo(t, tw, "", 0)
	ctx := context.Background()
	view, err := s.PreviewFanIn(ctx, nil)
	if err != nil || len(view.Order) != 2 || len(view.Left) != 0 || len(view.Commands) != 1 {
		t.Fatalf("preview %+v, %v", view, err)
	}
	if _, err := s.ApplyFanIn(ctx, view.ID, false); err == nil || !strings.Contains(err.Error(), "not verified (its verification has not run)") {
		t.Fatalf("apply before verifying: %v", err)
	}
	view, err = s.VerifyFanIn(ctx, view.ID)
	if err != nil || view.Verify == nil || view.Verify.Passed || view.Verify.Exit != 1 {
		t.Fatalf("merged verification %+v, %v", view.Verify, err)
	}
	if _, err := s.ApplyFanIn(ctx, view.ID, false); err == nil || !strings.Contains(err.Error(), "nothing was applied") {
		t.Fatalf("apply of a failing merge: %v", err)
	}
	if personFile(t, ws) != tenLines {
		t.Fatal("a merge that failed its verification reached the person's tree")
	}
	applied, err := s.ApplyFanIn(ctx, view.ID, true)
	if err != nil || !applied.Unverified || len(applied.Applied) != 2 {
		t.Fatalf("unverified apply %+v, %v", applied, err)
	}
	if got := personFile(t, ws); !strings.Contains(got, "CHANGED one") || !strings.Contains(got, "CHANGED two") {
		t.Fatalf("f.txt after the merge:\n%s", got)
	}
	for _, f := range fin {
		if _, err := s.Review(f.Agent); err == nil {
			t.Errorf("%s still waits for review after its merge was applied", f.Agent)
		}
	}
	if err := s.Submit("next"); err != nil {
		t.Fatal(err)
	}
	drainTurn(t, s)
	sessiontest.Contains(t, "parent told", tw.saw(), "It was applied unverified")

	tw = &twoWriters{one: withLine(2, "CHANGED one"), two: withLine(9, "CHANGED two"), verifyOne: bothChanged, verifyTwo: bothChanged}
	s, ws, _ = runTwo(t, tw, child.FinishApply, 0)
	merges := s.Merges()
	if len(merges) != 1 || !merges[0].Failed || !strings.Contains(merges[0].Reason, "merged result failed its verification") {
		t.Fatalf("merges %+v", merges)
	}
	if personFile(t, ws) != tenLines {
		t.Fatal("headless apply of a failing merge changed the person's tree")
	}
	sessiontest.Contains(t, "parent told", tw.saw(), "Your working tree is unchanged")
}

// TestFanInVerifiedMergeApplies: a clean merge whose verification passes
// is applied with one call, and the parent hears the merged result
// passed; headless apply does the same on its own.
func TestFanInVerifiedMergeApplies(t *testing.T) {
	t.Parallel() // waits out a real bound; overlaps the others that do
	tw := &twoWriters{one: withLine(2, "one"), two: withLine(9, "two"), verifyOne: "grep -q l5 f.txt", verifyTwo: "true"}
	s, ws, _ := runTwo(t, tw, child.FinishApply, 0)
	merges := s.Merges()
	if len(merges) != 1 || merges[0].Failed || !merges[0].Verified || len(merges[0].Applied) != 2 {
		t.Fatalf("merges %+v", merges)
	}
	if got := personFile(t, ws); got != withLine(9, "two")[:3]+"one\n"+withLine(9, "two")[6:] {
		t.Fatalf("f.txt:\n%s", got)
	}
	sessiontest.Contains(t, "parent told", tw.saw(), "The merged result passed its verification (grep -q l5 f.txt && true)")
}

// TestFanInOwnChangeFails: a change that fails its own verification is
// left out of the merge by default; headless apply applies the other
// and keeps the failing one on its branch.
func TestFanInOwnChangeFails(t *testing.T) {
	t.Parallel() // waits out a real bound; overlaps the others that do
	tw := &twoWriters{one: withLine(2, "one"), two: withLine(9, "two"), verifyOne: "true", verifyTwo: "grep -q never f.txt"}
	s, _, fin := runTwo(t, tw, "", 0)
	view, err := s.PreviewFanIn(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range view.Changes {
		if c.Chosen != (c.Agent == fin["child one"].Agent) {
			t.Errorf("chosen by default: %+v", c)
		}
	}

	tw = &twoWriters{one: withLine(2, "one"), two: withLine(9, "two"), verifyOne: "true", verifyTwo: "grep -q never f.txt"}
	s, ws, fin := runTwo(t, tw, child.FinishApply, 0)
	merges := s.Merges()
	if len(merges) != 1 || merges[0].Failed || len(merges[0].Applied) != 1 || merges[0].Applied[0] != fin["child one"].Agent ||
		len(merges[0].Kept) != 1 || merges[0].Kept[0] != fin["child two"].Agent {
		t.Fatalf("merges %+v", merges)
	}
	if personFile(t, ws) != withLine(2, "one") {
		t.Fatalf("f.txt:\n%s", personFile(t, ws))
	}
	sessiontest.Contains(t, "parent told", tw.saw(), "failed its own verification")
}

// TestFanInVerifyThatHangsIsBounded: a merged result whose verification
// never ends is killed at [limits] verify_timeout_s and reported.
func TestFanInVerifyThatHangsIsBounded(t *testing.T) {
	t.Parallel() // waits out a real bound; overlaps the others that do
	hangsOnBoth := `if [ "$(grep -c CHANGED f.txt)" -ge 2 ]; then sleep 600; fi`
	tw := &twoWriters{one: withLine(2, "CHANGED one"), two: withLine(9, "CHANGED two"), verifyOne: hangsOnBoth, verifyTwo: hangsOnBoth}
	s, ws, _ := runTwo(t, tw, child.FinishApply, time.Second)
	merges := s.Merges()
	if len(merges) != 1 || !merges[0].Failed || merges[0].Verify == nil || !merges[0].Verify.TimedOut ||
		!strings.Contains(merges[0].Reason, "verify timed out after 1s") {
		t.Fatalf("merges %+v", merges)
	}
	if personFile(t, ws) != tenLines {
		t.Fatal("a merge whose verification timed out changed the person's tree")
	}
}

// drainTurn reads events until the main agent's turn ends.
func drainTurn(t *testing.T, s *engine.Session) {
	t.Helper()
	deadline := time.After(sessiontest.Timeout)
	for {
		select {
		case ev, ok := <-s.Events():
			if !ok {
				t.Fatal("events closed")
			}
			if e, ok := ev.(event.TurnEnded); ok && e.Agent == event.MainAgent {
				return
			}
		case <-deadline:
			t.Fatal("turn did not end")
		}
	}
}

// TestFanInWithoutVerifyNeedsTheUnverifiedWord: two changes with no
// verify command merge in the preview, but the merged result cannot be
// verified, so applying it is refused until the person says unverified;
// then both land together and the main agent is told the result was not
// verified. The preview is gone after it was applied.
func TestFanInWithoutVerifyNeedsTheUnverifiedWord(t *testing.T) {
	tw := &twoWriters{one: withLine(2, "ONE"), two: withLine(9, "TWO")}
	s, ws, _ := runTwo(t, tw, "", 0)
	ctx := context.Background()
	preview, err := s.PreviewFanIn(ctx, nil)
	if err != nil || len(preview.Changes) != 2 {
		t.Fatalf("preview %+v, %v", preview, err)
	}
	if _, err := s.VerifyFanIn(ctx, preview.ID); err == nil || err.Error() != "no chosen change has a verify command, so the merged result cannot be verified" {
		t.Fatalf("verifying a merge with no verify command: %v", err)
	}
	if _, err := s.ApplyFanIn(ctx, preview.ID, false); err == nil ||
		err.Error() != "the merged result is not verified (no chosen change has a verify command); nothing was applied" {
		t.Fatalf("applying an unverified merge: %v", err)
	}
	if got := personFile(t, ws); got != tenLines {
		t.Fatalf("a refused merge wrote f.txt:\n%s", got)
	}
	applied, err := s.ApplyFanIn(ctx, preview.ID, true)
	if err != nil || len(applied.Applied) != 2 {
		t.Fatalf("applying unverified: %+v, %v", applied, err)
	}
	if got := personFile(t, ws); !strings.Contains(got, "ONE") || !strings.Contains(got, "TWO") {
		t.Fatalf("f.txt after the merge:\n%s", got)
	}
	if _, err := s.ApplyFanIn(ctx, preview.ID, true); err == nil {
		t.Fatal("a merge was applied twice")
	}
	if _, err := s.PreviewFanIn(ctx, nil); err == nil || err.Error() != "no change waits for review" {
		t.Fatalf("a preview once every change was applied: %v", err)
	}
	sessiontest.RunTurn(t, s, "and?", nil)
	sessiontest.Contains(t, "what the main agent is told", tw.saw(), "The merged result was not verified: no verify command applies.")
}
