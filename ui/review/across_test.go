package review

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/themes"
	"github.com/seed-e4e525a6/baton/ui/overlay"
)

// merger previews, verifies and applies as the engine does: the
// changes in order merge unless one is in clash, the merge passes
// verification unless failing is set, and an unverified merge is
// applied only when asked so.
type merger struct {
	mu      sync.Mutex
	changes []event.FanInChange
	clash   event.AgentID
	failing bool
	// unverifiable: no chosen change has a verify command.
	unverifiable bool
	n            int
	calls        []string
}

func (r *merger) PreviewFanIn(_ context.Context, chosen []event.AgentID) (event.FanIn, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.n++
	r.calls = append(r.calls, fmt.Sprintf("preview %v", chosen))
	fan := event.FanIn{ID: fmt.Sprint(r.n), Commands: []string{"go test ./..."}}
	if r.unverifiable {
		fan.Commands = nil
	}
	for _, c := range r.changes {
		if chosen != nil {
			c.Chosen = slices.Contains(chosen, c.Agent)
		}
		fan.Changes = append(fan.Changes, c)
		if !c.Chosen {
			continue
		}
		if c.Agent == r.clash {
			fan.Left = append(fan.Left, event.FanInLeft{Agent: c.Agent, Path: "engine/session.go", With: []event.AgentID{"general-purpose-2"}, Regions: 2})
			continue
		}
		fan.Order = append(fan.Order, c.Agent)
	}
	var by []event.AgentID
	for _, c := range fan.Changes {
		if c.Chosen {
			by = append(by, c.Agent)
		}
	}
	if len(by) > 0 {
		fan.Files = []event.FanInFile{{Path: "engine/parser.go", By: by}, {Path: "engine/loop.go", By: by[len(by)-1:]}}
	}
	if r.clash != "" && slices.Contains(by, r.clash) {
		fan.Files = append(fan.Files, event.FanInFile{Path: "engine/session.go", By: []event.AgentID{"general-purpose-2", r.clash}, Conflicting: []event.AgentID{r.clash}})
	}
	return fan, nil
}

func (r *merger) VerifyFanIn(_ context.Context, id string) (event.FanIn, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, "verify "+id)
	v := &event.Verification{Command: "go test ./...", Passed: true, Output: "ok  example/engine 0.2s"}
	if r.failing {
		v = &event.Verification{Command: "go test ./...", Failing: 1, Exit: 1, Output: "--- FAIL: TestMerged\nFAIL"}
	}
	return event.FanIn{ID: id, Verify: v}, nil
}

func (r *merger) ApplyFanIn(_ context.Context, id string, unverified bool) (event.FanInApplied, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, fmt.Sprintf("apply %s unverified=%v", id, unverified))
	if r.failing && !unverified {
		return event.FanInApplied{}, errors.New("the merged result is not verified; nothing was applied")
	}
	return event.FanInApplied{Applied: []event.AgentID{"general-purpose-2", "general-purpose-3"}, Unverified: unverified}, nil
}

func (r *merger) log() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.calls, "; ")
}

// pendingChanges are four changes: two chosen that merge, one whose own
// verification failed (not chosen), one chosen that conflicts.
func pendingChanges() []event.FanInChange {
	pass := &event.Verification{Command: "go test ./...", Passed: true}
	fail := &event.Verification{Command: "go test ./...", Failing: 3, Exit: 1}
	return []event.FanInChange{
		{Agent: "general-purpose-2", Number: 2, AgentType: "General", Description: "tidy the parser", Chosen: true, Change: event.Change{Added: 12, Removed: 4, Files: 2, Verify: pass}},
		{Agent: "general-purpose-3", Number: 3, AgentType: "General", Description: "rename Run to Loop", Chosen: true, Change: event.Change{Added: 3, Removed: 3, Files: 2, Verify: pass}},
		{Agent: "test-4", Number: 4, AgentType: "Test", Description: "fix the flaky session tests", Change: event.Change{Added: 1, Removed: 1, Files: 1, Verify: fail}},
		{Agent: "general-purpose-5", Number: 5, AgentType: "General", Description: "retry the stream", Chosen: true, Change: event.Change{Added: 9, Removed: 0, Files: 2}},
	}
}

// openAcross runs OpenAcross as the root does: the layer opens, then
// verifies its merge. It returns the view and the root's other messages.
func openAcross(t *testing.T, r *merger, closed func(*event.FanInApplied) tea.Cmd) (*Across, []tea.Msg) {
	t.Helper()
	styles := themes.New(themes.Dark())
	var m *Across
	var rest []tea.Msg
	for _, msg := range messages(OpenAcross(r, &styles, closed, func(err error) tea.Msg { return err })) {
		switch msg := msg.(type) {
		case overlay.Open:
			m = msg.Layer.(*Across)
			m.SetSize(80, 24)
		default:
			if m == nil {
				t.Fatalf("before the view opened: %v", msg)
			}
			rest = append(rest, feed(m, m.Update(msg))...)
		}
	}
	return m, rest
}

// feed runs cmd and hands the view its own messages back, as the root
// does; it returns the others.
func feed(m *Across, cmd tea.Cmd) []tea.Msg {
	var rest []tea.Msg
	pending := messages(cmd)
	for len(pending) > 0 {
		msg := pending[0]
		pending = pending[1:]
		if f, ok := msg.(FanInMsg); ok {
			pending = append(pending, messages(m.Update(f))...)
			continue
		}
		rest = append(rest, msg)
	}
	return rest
}

func pressAcross(m *Across, keys ...string) []tea.Msg {
	var rest []tea.Msg
	for _, k := range keys {
		rest = append(rest, feed(m, m.Update(keyMsg(k)))...)
	}
	return rest
}

// TestGoldenAcross is the view across pending changes at 60, 80 and 120
// columns: the changes and which are chosen, the merged result's
// verification, and each file with who touches it, where they overlap
// and where one is left out for a conflict.
func TestGoldenAcross(t *testing.T) {
	r := &merger{changes: pendingChanges(), clash: "general-purpose-5"}
	m, _ := openAcross(t, r, nil)
	for _, width := range []int{60, 80, 120} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			m.SetSize(width, 24)
			view := ansi.Strip(m.View())
			for i, line := range strings.Split(view, "\n") {
				if w := ansi.StringWidth(line); w > width {
					t.Errorf("line %d is %d wide: %q", i, w, line)
				}
			}
			golden.RequireEqual(t, []byte(view+"\n"))
		})
	}
}

// A verified merge is applied with one A, and the view closes saying
// what went in.
func TestAcrossAppliesAVerifiedMergeWithOneKey(t *testing.T) {
	r := &merger{changes: pendingChanges()[:2]}
	var applied []*event.FanInApplied
	m, _ := openAcross(t, r, func(a *event.FanInApplied) tea.Cmd { applied = append(applied, a); return nil })
	if got := ansi.Strip(m.View()); !strings.Contains(got, "merge verified ✓") || !strings.Contains(got, "order #2 → #3\n") {
		t.Fatalf("view:\n%s", got)
	}
	rest := pressAcross(m, "A")
	if len(applied) != 1 || applied[0] == nil || applied[0].Unverified || len(rest) != 1 || rest[0] != (overlay.Close{Layer: m}) {
		t.Fatalf("applied %v, rest %v", applied, rest)
	}
	if got := r.log(); got != "preview []; verify 1; apply 1 unverified=false" {
		t.Errorf("calls: %s", got)
	}
}

// A merge whose verification failed needs a deliberate second A, and
// says so; any other key keeps the person's tree; o shows why it failed.
func TestAcrossUnverifiedMergeNeedsASecondKey(t *testing.T) {
	r := &merger{changes: pendingChanges()[:2], failing: true}
	var applied []*event.FanInApplied
	m, _ := openAcross(t, r, func(a *event.FanInApplied) tea.Cmd { applied = append(applied, a); return nil })
	pressAcross(m, "A")
	if got := ansi.Strip(m.View()); !strings.Contains(got, "The merged result is not verified (1 failing). A again applies it unverified") {
		t.Fatalf("after one A:\n%s", got)
	}
	pressAcross(m, "j")
	if strings.Contains(r.log(), "apply") || strings.Contains(ansi.Strip(m.View()), "A again") {
		t.Fatalf("a key other than A applied or kept asking: %s", r.log())
	}
	pressAcross(m, "o")
	if got := ansi.Strip(m.View()); !strings.Contains(got, "--- FAIL: TestMerged") {
		t.Fatalf("o:\n%s", got)
	}
	pressAcross(m, "o", "A", "A")
	if len(applied) != 1 || !applied[0].Unverified || !strings.HasSuffix(r.log(), "apply 1 unverified=true") {
		t.Fatalf("applied %v; calls %s", applied, r.log())
	}
}

// space takes a change in or out: the merge is previewed again with the
// new choice and verified again.
func TestAcrossChoosesChanges(t *testing.T) {
	r := &merger{changes: pendingChanges(), clash: "general-purpose-5"}
	m, _ := openAcross(t, r, nil)
	if got := ansi.Strip(m.View()); !strings.Contains(got, "3 of 4 chosen") || !strings.Contains(got, "#5 conflicts with #2") || !strings.Contains(got, "#5 left out (conflict)") {
		t.Fatalf("view:\n%s", got)
	}
	pressAcross(m, "j", "j", "j", " ")
	got := ansi.Strip(m.View())
	if !strings.Contains(got, "2 of 4 chosen") || strings.Contains(got, "conflicts") || !strings.Contains(got, "[ ] #5") {
		t.Fatalf("after space on #5:\n%s", got)
	}
	if log := r.log(); log != "preview []; verify 1; preview [general-purpose-2 general-purpose-3]; verify 2" {
		t.Errorf("calls: %s", log)
	}
	if rest := pressAcross(m, "esc"); len(rest) != 1 || rest[0] != (overlay.Close{Layer: m}) {
		t.Errorf("esc: %v", rest)
	}
}

// A merge no chosen change can verify says so in the view and in the
// question after one A, and is applied unverified only on a second; with
// nothing chosen there is nothing to merge. The view takes the whole
// screen and every key, and its help names where it is.
func TestAcrossMergeThatCannotBeVerified(t *testing.T) {
	r := &merger{changes: pendingChanges()[:2], unverifiable: true}
	var applied []*event.FanInApplied
	m, _ := openAcross(t, r, func(a *event.FanInApplied) tea.Cmd { applied = append(applied, a); return nil })
	got := ansi.Strip(m.View())
	if !strings.Contains(got, "cannot be verified: no chosen change has a verify command") || !strings.Contains(got, "not verifiable") {
		t.Fatalf("view:\n%s", got)
	}
	pressAcross(m, "A")
	if got := ansi.Strip(m.View()); !strings.Contains(got, "The merged result is not verified (no chosen change has a verify command)") || len(applied) != 0 {
		t.Fatalf("after one A (applied %v):\n%s", applied, got)
	}
	pressAcross(m, "A")
	if len(applied) != 1 || !applied[0].Unverified || strings.Contains(r.log(), "verify") {
		t.Fatalf("applied %v; calls %s", applied, r.log())
	}
	m, _ = openAcross(t, &merger{changes: pendingChanges()[:1], unverifiable: true}, nil)
	pressAcross(m, " ")
	if got := ansi.Strip(m.View()); !strings.Contains(got, "nothing to merge") {
		t.Fatalf("nothing chosen:\n%s", got)
	}
	if m.Place() != overlay.Screen || m.Route(keyMsg("x")) != overlay.Take {
		t.Fatal("the merge view does not take the screen and its keys")
	}
	if help := m.FullHelp(); len(help) != 1 || help[0].Where != "merge of pending changes" || len(help[0].Keys) == 0 {
		t.Fatalf("help %+v", help)
	}
}
