package pane

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/themes"
)

// A worktree child's fold line carries its change and what became of it:
// pending review, then the review's words; kept on a branch; gone; with
// the verify mark beside it. A child that changed nothing says nothing.
func TestFoldLineCarriesTheChange(t *testing.T) {
	finish := func(c *event.Change) *Pane {
		p := newPane()
		for _, ev := range started() {
			p.Apply(ev)
		}
		p.Apply(event.AgentFinished{Meta: at(5 * time.Second), Status: event.StatusCompleted, Change: c})
		return p
	}
	header := func(p *Pane) string { return ansi.Strip(p.HeaderLine(200)) }

	p := finish(&event.Change{Added: 42, Removed: 7, Files: 3, State: event.ChangePending, Branch: "baton/explore-1",
		Verify: &event.Verification{Failing: 2}})
	if h := header(p); !strings.Contains(h, "+42 −7 in 3 files, pending review · ✗ 2 failing") || !p.PendingReview() {
		t.Errorf("pending: %q", h)
	}
	p.Apply(event.ReviewFinished{Meta: at(9 * time.Second), Change: event.Change{Added: 42, Removed: 7, Files: 3, State: event.ChangeReviewed},
		Summary: "applied 2 files,\nskipped 1"})
	if h := header(p); !strings.Contains(h, "in 3 files, applied 2 files, skipped 1 · ✗ 2 failing") || p.PendingReview() || p.Change().Branch != "baton/explore-1" {
		t.Errorf("reviewed: %q, change %+v", h, p.Change())
	}
	if entries := p.Conversation().Entries(); entries[len(entries)-1].Title != "review" {
		t.Errorf("the review is not in the child's conversation: %+v", entries[len(entries)-1])
	}
	for c, want := range map[*event.Change]string{
		{Added: 1, Files: 1, State: event.ChangeKept, Branch: "baton/x"}: "+1 −0 in 1 file, kept on baton/x",
		{Added: 1, Files: 1, State: event.ChangeGone}:                    "its worktree is gone",
		{Added: 1, Files: 1, State: event.ChangeReviewed}:                "in 1 file, reviewed",
	} {
		if h := header(finish(c)); !strings.Contains(h, want) {
			t.Errorf("%s: %q", c.State, h)
		}
	}
	for _, c := range []*event.Change{nil, {State: event.ChangeNone}} {
		if h := header(finish(c)); strings.Contains(h, "file") {
			t.Errorf("no change: %q", h)
		}
	}
	other := newPane()
	other.Apply(event.ReviewFinished{Meta: event.Meta{Agent: "plan-2"}, Change: event.Change{State: event.ChangeReviewed}})
	if other.Change() != nil {
		t.Error("another child's review reached this pane")
	}
}

// A pane made before its child's events knows who it is from them; the
// activity under the header shows each kind of item: the person's
// message, a notice, an error, calls done, failed, waiting for the
// person and running, and the end of a long text from a whole character.
func TestActivityShowsEachItem(t *testing.T) {
	styles := themes.New(themes.Dark())
	p := New(event.Meta{Agent: "explore-1"}, 1, &styles)
	evs := started()
	evs = append(evs,
		event.AgentMessage{Meta: at(2 * time.Second), Text: "look in internal/\nfirst"},
		event.Notice{Meta: at(2 * time.Second), Text: "model fell back"},
		event.ToolStarted{Meta: at(3 * time.Second), CallID: "c1", Name: "grep", Title: "grep auth"},
		event.ToolFinished{Meta: at(3 * time.Second), CallID: "c1", Name: "grep", Summary: "7 matches"},
		event.ToolStarted{Meta: at(3 * time.Second), CallID: "c2", Name: "read_file", Title: "read_file gone.go"},
		event.ToolFinished{Meta: at(3 * time.Second), CallID: "c2", Name: "read_file", Summary: "no such file", IsError: true},
		event.ToolStarted{Meta: at(4 * time.Second), CallID: "c3", Name: "run_command", Title: "run_command make"},
		event.ApprovalRequested{Meta: at(4 * time.Second), Request: &event.ApprovalRequest{ID: "p1", Kind: event.ApproveTool, CallID: "c3", Tool: "run_command"}},
		event.ToolStarted{Meta: at(4 * time.Second), CallID: "c4", Name: "grep", Title: "grep TODO"},
		event.ErrorOccurred{Meta: at(5 * time.Second), Message: "the provider said no"},
	)
	for _, ev := range evs {
		p.Apply(ev)
	}
	if p.Meta().AgentType != "Explore" || p.Meta().Description != "find auth code" || p.Meta().Parent != event.MainAgent {
		t.Errorf("meta from the events: %+v", p.Meta())
	}
	if !p.Live() || p.Running() || p.Background() {
		t.Errorf("state %v", p.State())
	}
	view := ansi.Strip(p.View(100, 12))
	for _, want := range []string{"you: look in internal/ first", "· model fell back", "✓ grep auth (7 matches)", "✗ read_file gone.go (no such file)",
		"? run_command make (waiting for approval)", "▸ grep TODO", "✗ the provider said no"} {
		if !strings.Contains(view, want) {
			t.Errorf("the pane lacks %q:\n%s", want, view)
		}
	}
	if got := tail("añb", 2); got != "b" {
		t.Errorf("tail cut a character: %q", got)
	}
	if got := tail("abc", 5); got != "abc" {
		t.Errorf("tail of a short text: %q", got)
	}
	p.Apply(event.AgentBackgrounded{Meta: at(6 * time.Second)})
	if !p.Background() {
		t.Error("a backgrounded child is not marked")
	}
}
