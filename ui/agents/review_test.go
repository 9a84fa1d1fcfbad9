package agents

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/overlay"
	"github.com/seed-e4e525a6/baton/ui/pane"
	"github.com/seed-e4e525a6/baton/ui/status"
)

// reviewing is a session that can review and merge children's changes.
type reviewing struct {
	*session
	loadErr error
}

func (r *reviewing) Review(id event.AgentID) (event.Review, error) {
	if r.loadErr != nil {
		return event.Review{}, r.loadErr
	}
	return event.Review{Agent: id, AgentType: "Explore", Description: "task 1", Files: []event.ReviewFile{{
		Path: "engine/loop.go", Status: "modified", Added: 1, Removed: 1, Hunks: []event.ReviewHunk{{
			Header: "@@ -1 +1 @@", Decision: event.DecisionPending,
			Lines: []event.DiffLine{{Kind: '-', Text: "old"}, {Kind: '+', Text: "new"}}}}}}}, nil
}

func (r *reviewing) ApplyChange(context.Context, event.AgentID, int, int, string) (*event.ReviewConflict, error) {
	return nil, nil
}
func (r *reviewing) SkipChange(event.AgentID, int, int) error { return nil }

func (r *reviewing) PreviewFanIn(_ context.Context, chosen []event.AgentID) (event.FanIn, error) {
	return event.FanIn{ID: "1", Order: []event.AgentID{"explore-1"}, Changes: []event.FanInChange{
		{Agent: "explore-1", Number: 1, AgentType: "Explore", Description: "task 1", Chosen: true}}}, nil
}
func (r *reviewing) VerifyFanIn(_ context.Context, id string) (event.FanIn, error) {
	return event.FanIn{ID: id}, nil
}
func (r *reviewing) ApplyFanIn(_ context.Context, id string, unverified bool) (event.FanInApplied, error) {
	return event.FanInApplied{Applied: []event.AgentID{"explore-1"}, Unverified: unverified}, nil
}

// finishWithChange ends child p with a change waiting for review.
func finishWithChange(a *Area, p *pane.Pane) {
	a.Apply(event.AgentFinished{Meta: p.Meta(), Status: event.StatusCompleted,
		Change: &event.Change{Added: 1, Removed: 1, Files: 1, State: event.ChangePending, Branch: "baton/explore-1"}}, t0.Add(time.Second), "⠋")
}

// flatten runs cmd and the batches and sequences it returns, and
// returns their messages in order.
func flatten(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if msg == nil {
		return nil
	}
	v := reflect.ValueOf(msg)
	if v.Kind() != reflect.Slice || v.Type().Elem() != reflect.TypeOf(tea.Cmd(nil)) {
		return []tea.Msg{msg}
	}
	var out []tea.Msg
	for i := range v.Len() {
		out = append(out, flatten(v.Index(i).Interface().(tea.Cmd))...)
	}
	return out
}

// opened runs cmd as the root does: a layer it opens is pushed, sized
// and handed the messages that follow (its loads, verifications and
// answers); it returns the layer and the messages no layer took.
func opened(t *testing.T, layers *overlay.Stack, cmd tea.Cmd) (overlay.Layer, []tea.Msg) {
	t.Helper()
	var layer overlay.Layer
	var rest []tea.Msg
	pending := flatten(cmd)
	for len(pending) > 0 {
		msg := pending[0]
		pending = pending[1:]
		switch msg := msg.(type) {
		case overlay.Open:
			layer = msg.Layer
			layer.SetSize(100, 30)
			layers.Push(layer)
		case overlay.Close, status.Said:
			rest = append(rest, msg)
		default:
			if layer == nil {
				rest = append(rest, msg)
				continue
			}
			pending = append(pending, flatten(layer.Update(msg))...)
		}
	}
	return layer, rest
}

// enter on a folded child whose change waits opens its review over
// everything; closed undecided, the status line says how to come back;
// tab in the review goes to the merge of every pending change, whose
// apply says on the status line what went in.
func TestEnterOnAFoldedChildReviewsItsChange(t *testing.T) {
	a, s, said, layers := newArea()
	a.cfg.Session = &reviewing{session: s}
	p := start(a, 1, "Explore")
	finishWithChange(a, p)
	if got := a.Reviewable(); len(got) != 1 || got[0] != p || a.Running() {
		t.Fatalf("reviewable %v, running %v", got, a.Running())
	}
	focusQuietly(a, p.ID())
	if help := a.ShortHelp(); len(help) == 0 || help[0].Help().Desc != "review" {
		t.Fatalf("a folded child's first key is %+v, want review", help)
	}
	layer, _ := opened(t, layers, a.Update(tea.KeyMsg{Type: tea.KeyEnter}))
	if layer == nil || !strings.Contains(ansi.Strip(layer.View()), "engine/loop.go") {
		t.Fatalf("enter opened %v", layer)
	}
	run(layer.Update(tea.KeyMsg{Type: tea.KeyEsc}))
	if want := "#1 explore-1's change still waits for review: enter on its line, or /subagents diff 1"; !strings.Contains(said.Text(), "still waits for review: enter on its line, or /subagents diff 1") {
		t.Fatalf("closed undecided, the status says %q, want %q", said.Text(), want)
	}
	merge, rest := opened(t, layers, layer.Update(tea.KeyMsg{Type: tea.KeyTab}))
	if merge == nil || !strings.Contains(ansi.Strip(merge.View()), "Merge  1 change waits for review") {
		t.Fatalf("tab opened %v (and %v)", merge, rest)
	}
	// Nothing verifies this merge: one A asks, a second applies it.
	for range 2 {
		for _, msg := range flatten(merge.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("A")})) {
			flatten(merge.Update(msg))
		}
	}
	if !strings.Contains(said.Text(), "applied the merge of explore-1 to your tree unverified") {
		t.Fatalf("after the merge the status says %q", said.Text())
	}
}

// A child with nothing to review says so; a review that cannot be
// loaded says why.
func TestReviewThatCannotOpenSaysWhy(t *testing.T) {
	a, s, said, layers := newArea()
	r := &reviewing{session: s}
	a.cfg.Session = r
	p := start(a, 1, "Explore")
	finish(a, p)
	if cmd := a.OpenReview(p); cmd != nil || said.Text() != "#1 explore-1 has no change waiting for review" {
		t.Fatalf("review of a child without a change: cmd %v, status %q", cmd != nil, said.Text())
	}
	q := start(a, 2, "Explore")
	finishWithChange(a, q)
	r.loadErr = errors.New("read the worktree: gone")
	layer, rest := opened(t, layers, a.OpenReview(q))
	if layer != nil || len(rest) != 1 || rest[0] != (status.Said{Level: status.Error, Text: "review: read the worktree: gone"}) {
		t.Fatalf("opened %v, told %v", layer, rest)
	}
}
