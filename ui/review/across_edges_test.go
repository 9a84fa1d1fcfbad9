package review

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/themes"
	"github.com/seed-e4e525a6/baton/ui/overlay"
)

// faulty is a merger whose steps fail with the errors set.
type faulty struct {
	*merger
	preview, verify, apply error
}

func (f *faulty) PreviewFanIn(ctx context.Context, chosen []event.AgentID) (event.FanIn, error) {
	if f.preview != nil {
		return event.FanIn{}, f.preview
	}
	return f.merger.PreviewFanIn(ctx, chosen)
}

func (f *faulty) VerifyFanIn(ctx context.Context, id string) (event.FanIn, error) {
	if f.verify != nil {
		return event.FanIn{}, f.verify
	}
	return f.merger.VerifyFanIn(ctx, id)
}

func (f *faulty) ApplyFanIn(ctx context.Context, id string, unverified bool) (event.FanInApplied, error) {
	if f.apply != nil {
		return event.FanInApplied{}, f.apply
	}
	return f.merger.ApplyFanIn(ctx, id, unverified)
}

// openFaulty opens the view over f as the root does.
func openFaulty(t *testing.T, f *faulty) (*Across, []tea.Msg) {
	t.Helper()
	styles := themes.New(themes.Dark())
	var m *Across
	var rest []tea.Msg
	for _, msg := range messages(OpenAcross(f, &styles, nil, func(err error) tea.Msg { return err })) {
		switch msg := msg.(type) {
		case error:
			rest = append(rest, msg)
		case overlay.Open:
			m = msg.Layer.(*Across)
			m.SetSize(80, 24)
		default:
			rest = append(rest, feed(m, m.Update(msg))...)
		}
	}
	return m, rest
}

// A merge that cannot be previewed never opens a view: the root is told
// why.
func TestAcrossPreviewThatFailsOpensNothing(t *testing.T) {
	boom := errors.New("preview fan-in: the repository is locked")
	m, rest := openFaulty(t, &faulty{merger: &merger{changes: pendingChanges()}, preview: boom})
	if m != nil || len(rest) != 1 || rest[0] != error(boom) {
		t.Fatalf("opened %v, told %v", m, rest)
	}
}

// A verification or an apply that fails says why on the status line and
// applies nothing; the view stays open for another try.
func TestAcrossShowsWhatFailed(t *testing.T) {
	f := &faulty{merger: &merger{changes: pendingChanges()[:2]}, verify: errors.New("verify fan-in: the scratch worktree is gone")}
	m, _ := openFaulty(t, f)
	got := ansi.Strip(m.View())
	if !strings.Contains(got, "verify fan-in: the scratch worktree is gone") || strings.Contains(got, "merge verified") {
		t.Fatalf("a failed verification:\n%s", got)
	}
	// Not verified, so A asks first, saying the verification has not run.
	pressAcross(m, "A")
	if got := ansi.Strip(m.View()); !strings.Contains(got, "not verified (its verification has not run)") {
		t.Fatalf("after A:\n%s", got)
	}
	f.apply = errors.New("apply fan-in: engine/parser.go changed under the merge")
	if rest := pressAcross(m, "A"); len(rest) != 0 {
		t.Fatalf("a failed apply closed the view: %v", rest)
	}
	if got := ansi.Strip(m.View()); !strings.Contains(got, "apply fan-in: engine/parser.go changed under the merge") {
		t.Fatalf("after a failed apply:\n%s", got)
	}
	// A preview that fails on a new choice says so too.
	f.preview = errors.New("preview fan-in: git merge-tree failed")
	pressAcross(m, " ")
	if got := ansi.Strip(m.View()); !strings.Contains(got, "preview fan-in: git merge-tree failed") {
		t.Fatalf("after a failed preview:\n%s", got)
	}
}

// While the merge is verified the view says so, and A asks first with
// that reason; an answer for a merge no longer shown changes nothing.
// While an action runs the status says work goes on and keys other than
// moving and closing wait.
func TestAcrossWhileItWorks(t *testing.T) {
	r := &merger{changes: pendingChanges()[:2]}
	styles := themes.New(themes.Dark())
	m := NewAcross(r, event.FanIn{}, &styles)
	m.SetSize(80, 24)
	fan, _ := r.PreviewFanIn(context.Background(), nil)
	m.fan = fan
	verify := m.Update(startVerify{m}) // the verification runs; its answer is held back
	got := ansi.Strip(m.View())
	if !strings.Contains(got, "verifying…") || !strings.Contains(got, "$ go test ./...  running in a scratch worktree…") {
		t.Fatalf("while verifying:\n%s", got)
	}
	pressAcross(m, "A")
	if got := ansi.Strip(m.View()); !strings.Contains(got, "not verified (its verification is still running)") {
		t.Fatalf("A while verifying:\n%s", got)
	}
	pressAcross(m, "x") // keeps the tree
	stale := FanInMsg{view: m, verified: true, id: "an older preview", Fan: event.FanIn{Verify: &event.Verification{Passed: true}}}
	if cmd := m.Update(stale); cmd != nil || !strings.Contains(ansi.Strip(m.View()), "verifying…") {
		t.Fatal("the verification of a preview no longer shown was taken")
	}
	feed(m, verify)
	if got := ansi.Strip(m.View()); !strings.Contains(got, "merge verified ✓") {
		t.Fatalf("after the verification:\n%s", got)
	}
	choose := m.Update(keyMsg(" ")) // held back: the view is busy
	if got := ansi.Strip(m.View()); !strings.Contains(got, "working…") {
		t.Fatalf("while a preview runs:\n%s", got)
	}
	pressAcross(m, "A", " ")
	if strings.Count(r.log(), "preview") != 1 || strings.Contains(r.log(), "apply") {
		t.Fatalf("keys acted while busy: %s", r.log())
	}
	feed(m, choose)
	if got := ansi.Strip(m.View()); strings.Contains(got, "working…") || !strings.Contains(got, "1 of 2 chosen") {
		t.Fatalf("after the preview:\n%s", got)
	}
	// A burst of typed runes (a paste) decides nothing.
	if cmd := m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("A A")}); cmd != nil || strings.Contains(r.log(), "apply") {
		t.Fatalf("a burst acted: %s", r.log())
	}
}

// With nothing that merges, A says to choose changes; when every chosen
// change conflicts, the order line says nothing merges cleanly.
func TestAcrossNothingToApply(t *testing.T) {
	changes := pendingChanges()
	for i := range changes {
		changes[i].Chosen = changes[i].Agent == "general-purpose-5"
	}
	m, _ := openAcross(t, &merger{changes: changes, clash: "general-purpose-5"}, nil)
	pressAcross(m, "A")
	got := ansi.Strip(m.View())
	if !strings.Contains(got, "no chosen change merges cleanly: choose changes with space") || !strings.Contains(got, "nothing merges cleanly · #5 left out (conflict)") {
		t.Fatalf("view:\n%s", got)
	}
}

// k moves back up the changes; with the output shown, j and k scroll it
// and the view keeps to its height. A long list ends in how many lines
// are below; links the merge leaves out are named.
func TestAcrossMovesAndScrolls(t *testing.T) {
	r := &merger{changes: pendingChanges()[:2], failing: true}
	m, _ := openAcross(t, r, nil)
	pressAcross(m, "j", "j", "k", " ")
	if got := r.log(); !strings.Contains(got, "preview [general-purpose-3]") {
		t.Fatalf("space after j j k chose the wrong change: %s", got)
	}
	m.fan.Verify = &event.Verification{Command: "go test ./...", Failing: 1, Exit: 1, Output: strings.Repeat("--- FAIL: TestMerged\n", 40)}
	m.SetSize(60, 12)
	pressAcross(m, "o", "j", "j", "j")
	got := ansi.Strip(m.View())
	if lines := strings.Split(got, "\n"); len(lines) != 12 || strings.Contains(got, "$ go test ./...  ✗") {
		t.Fatalf("scrolled output (%d lines) still shows its first line:\n%s", len(lines), got)
	}
	pressAcross(m, "k", "k", "k", "k")
	if got := ansi.Strip(m.View()); !strings.Contains(got, "$ go test ./...  ✗") {
		t.Fatalf("scrolled back up:\n%s", got)
	}
	pressAcross(m, "o")
	m.fan.Skipped = []string{"docs/link"}
	for i := range 10 {
		m.fan.Files = append(m.fan.Files, event.FanInFile{Path: fmt.Sprintf("engine/f%d.go", i), By: []event.AgentID{"general-purpose-2"}})
	}
	got = ansi.Strip(m.View())
	if !strings.Contains(got, "more lines") || len(strings.Split(got, "\n")) != 12 {
		t.Fatalf("a long list at 12 rows:\n%s", got)
	}
	m.SetSize(60, 40)
	if got := ansi.Strip(m.View()); !strings.Contains(got, "docs/link  symbolic link: not applied here") {
		t.Fatalf("the skipped link is not named:\n%s", got)
	}
	if help := (acrossHelp{m}).FullHelp(); len(help) != 1 || len(help[0]) == 0 {
		t.Fatalf("the help line's keys: %v", help)
	}
}
