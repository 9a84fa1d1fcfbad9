package agents

import (
	"errors"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/pane"
	"github.com/seed-e4e525a6/baton/ui/status"
)

// TestResumeAndRetryOnlyAFinishedChild: resuming or retrying a child
// still running is refused on the status line with no session call; a
// finished one is resumed or retried through the session in a Cmd, and
// the session's refusal comes back as an error to say.
func TestResumeAndRetryOnlyAFinishedChild(t *testing.T) {
	a, s, said, _ := newArea()
	p := start(a, 1, "Explore")
	for name, act := range map[string]func(*pane.Pane) tea.Cmd{"resume": a.Resume, "retry": a.Retry} {
		if act(p) != nil {
			t.Fatalf("%s of a running child gave a Cmd", name)
		}
		if !strings.Contains(said.Text(), name+": ") || !strings.Contains(said.Text(), "is still running") {
			t.Fatalf("%s of a running child said %q", name, said.Text())
		}
	}
	if len(s.calls) != 0 {
		t.Fatalf("the session was called for a running child: %v", s.calls)
	}
	finish(a, p)
	if msgs := run(a.Resume(p)); len(msgs) != 1 || msgs[0] != nil || !strings.Contains(said.Text(), "resuming ") {
		t.Fatalf("resume: %v, status %q", msgs, said.Text())
	}
	if msgs := run(a.Retry(p)); len(msgs) != 1 || msgs[0] != nil || !strings.Contains(said.Text(), "retrying the task of ") {
		t.Fatalf("retry: %v, status %q", msgs, said.Text())
	}
	if !slices.Equal(s.calls, []string{"resume explore-1", "retry explore-1"}) {
		t.Fatalf("session calls %v", s.calls)
	}
	s.fail = errors.New("explore-1 has no transcript to resume from")
	msgs := run(a.Resume(p))
	if len(msgs) != 1 || msgs[0] != (status.Said{Level: status.Error, Text: "explore-1 has no transcript to resume from"}) {
		t.Fatalf("a refused resume: %v", msgs)
	}
}

// TestMergedNoticeSaysHowItWasVerified: the line after a merge names
// what went in and whether the merged result passed verification.
func TestMergedNoticeSaysHowItWasVerified(t *testing.T) {
	applied := []event.AgentID{"explore-1", "plan-2"}
	for _, c := range []struct {
		verify *event.Verification
		want   string
	}{
		{&event.Verification{Passed: true}, "applied the merge of explore-1, plan-2 to your tree (merged result verified ✓)"},
		{&event.Verification{Exit: 2}, "applied the merge of explore-1, plan-2 to your tree unverified (✗ verify failed (exit 2))"},
		{nil, "applied the merge of explore-1, plan-2 to your tree unverified (no verify command)"},
	} {
		if got := mergedNotice(event.FanInApplied{Applied: applied, Verify: c.verify}); got != c.want {
			t.Errorf("notice %q, want %q", got, c.want)
		}
	}
}

// TestMergeAndReviewNeedASessionThatCanDoThem: a session that cannot
// merge or review says so on the status line instead of opening a view.
func TestMergeAndReviewNeedASessionThatCanDoThem(t *testing.T) {
	a, _, said, layers := newArea()
	if cmd := a.OpenMerge(); cmd != nil || said.Text() != "this session cannot merge changes" {
		t.Fatalf("merge without a merger: cmd %v, status %q", cmd != nil, said.Text())
	}
	p := start(a, 1, "Explore")
	finish(a, p)
	if cmd := a.OpenReview(p); cmd != nil || said.Text() != "this session cannot review changes" {
		t.Fatalf("review without a reviewer: cmd %v, status %q", cmd != nil, said.Text())
	}
	if layers.Len() != 0 {
		t.Fatalf("%d layers opened", layers.Len())
	}
}
