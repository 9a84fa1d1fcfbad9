package child_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/permission"
	"github.com/seed-e4e525a6/baton/engine/sessiontest"
)

// verifyChild scripts a main agent that delegates one worktree child
// (taskExtra adds arguments to the task call), which writes a.txt.
func verifyChild(taskExtra string) llmtest.Responder {
	return func(r *llmtest.Request, w *llmtest.Writer) {
		done := len(sessiontest.ToolMessages(r))
		switch {
		case !sessiontest.IsChild(r) && done == 0:
			w.ToolCalls(llmtest.Call{ID: "t", Name: "task", Args: `{"description":"edit","prompt":"edit a","subagent_type":"general-purpose","isolation":"worktree"` + taskExtra + `}`})
		case !sessiontest.IsChild(r):
			w.Text("ok")
		case done == 0:
			w.ToolCalls(llmtest.Call{ID: "a", Name: "write_file", Args: `{"path":"a.txt","content":"a by the child\n"}`})
		default:
			w.Text("edited")
		}
	}
}

// runVerified runs one worktree child under verify (config) and
// returns its AgentFinished and the delegation card's preview.
func runVerified(t *testing.T, verify []string, taskExtra string, timeout time.Duration) (event.AgentFinished, *event.DelegationPreview) {
	t.Helper()
	s, _ := newTestSession(t, verifyChild(taskExtra), func(c *engine.Config) {
		c.Worktrees.Root = t.TempDir()
		c.Worktrees.Verify = verify
		c.Limits.VerifyTimeout = timeout
		c.Mode = permission.Ask
		sessiontest.WriteFile(t, c.Workspace, "a.txt", "a\n")
		sessiontest.GitRepo(t, c.Workspace)
	})
	var card *event.DelegationPreview
	log := sessiontest.RunTurn(t, s, "go", func(r *event.ApprovalRequest) event.Answer {
		if r.Delegation != nil {
			card = r.Delegation
		}
		return event.Answer{Decision: event.Allow}
	})
	f := sessiontest.Of[event.AgentFinished](log)
	if len(f) != 1 || f[0].Change == nil {
		t.Fatalf("finished %+v", f)
	}
	return f[0], card
}

// TestVerifyRunsInTheChildsWorktree: the verify command sees the
// child's change (it runs in the worktree, not the person's tree), its
// pass is on the change and in the parent's tool result.
func TestVerifyRunsInTheChildsWorktree(t *testing.T) {
	f, _ := runVerified(t, []string{`grep -q "by the child" a.txt`, "true"}, "", 0)
	v := f.Change.Verify
	if v == nil || !v.Passed || v.Mark() != "verified ✓" {
		t.Fatalf("verification %+v", v)
	}
	sessiontest.Contains(t, "parent told", f.Result, `passed its verification (grep -q "by the child" a.txt && true)`)
}

// TestVerifyOwnChangeFails: a change whose own verification fails is
// marked with the failing tests counted, and the parent gets the output
// so it can send the child back with it.
func TestVerifyOwnChangeFails(t *testing.T) {
	script := `printf -- '--- FAIL: TestA\n    --- FAIL: TestA/sub\n--- FAIL: TestB\n--- FAIL: TestC\nFAIL\n'; exit 1`
	f, _ := runVerified(t, []string{"true", script, "touch never-ran"}, "", 0)
	v := f.Change.Verify
	if v == nil || v.Passed || v.Failing != 3 || v.Exit != 1 || v.Mark() != "✗ 3 failing" {
		t.Fatalf("verification %+v", v)
	}
	sessiontest.Contains(t, "parent told", f.Result, "failed its verification")
	sessiontest.Contains(t, "parent told", f.Result, "--- FAIL: TestB")
	if strings.Contains(v.Output, "never-ran") {
		t.Errorf("ran on after a failing command: %q", v.Output)
	}
}

// TestVerifyThatHangsIsBounded: a verify command that never ends is
// killed at [limits] verify_timeout_s and reported as timed out; the
// child still finishes and its change still waits for review.
func TestVerifyThatHangsIsBounded(t *testing.T) {
	t.Parallel() // waits out a real bound; overlaps the others that do
	f, _ := runVerified(t, []string{"sleep 600"}, "", time.Second)
	v := f.Change.Verify
	if v == nil || v.Passed || !v.TimedOut || v.Mark() != "✗ verify timed out after 1s" {
		t.Fatalf("verification %+v", v)
	}
	if f.Change.State != event.ChangePending {
		t.Errorf("change %+v", f.Change)
	}
	sessiontest.Contains(t, "parent told", f.Result, "verify timed out after 1s")
}

// TestVerifyFromTaskCall: the parent's verify argument replaces the
// configured command, and the delegation card shows it before it runs.
func TestVerifyFromTaskCall(t *testing.T) {
	f, card := runVerified(t, []string{"false"}, `,"verify":"test -f a.txt"`, 0)
	if v := f.Change.Verify; v == nil || !v.Passed || v.Command != "test -f a.txt" {
		t.Fatalf("verification %+v", v)
	}
	if card == nil || !slices.Equal(card.Verify, []string{"test -f a.txt"}) {
		t.Fatalf("card %+v", card)
	}
}
