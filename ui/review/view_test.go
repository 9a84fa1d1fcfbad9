package review

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/themes"
)

// The source line counts files in words a person reads: "1 file", not
// "1 files".
func TestSourceLineCountsFiles(t *testing.T) {
	styles := themes.New(themes.Dark())
	hunk := event.ReviewHunk{Header: "@@ -1 +1 @@", Lines: []event.DiffLine{{Kind: '-', Text: "a"}, {Kind: '+', Text: "b"}}}
	for files, want := range map[int]string{1: "1 file · 0 of 1 decided", 2: "2 files · 0 of 2 decided"} {
		rv := event.Review{From: "main@1b96d60"}
		for i := range files {
			rv.Files = append(rv.Files, event.ReviewFile{Path: string(rune('a'+i)) + ".txt", Hunks: []event.ReviewHunk{hunk}})
		}
		m := New(nil, LoadedMsg{Agent: "general-purpose-1", Review: rv}, &styles)
		m.SetSize(80, 20)
		if view := ansi.Strip(m.View()); !strings.Contains(view, want) {
			t.Errorf("%d files: the view lacks %q:\n%s", files, want, view)
		}
	}
}

// The review shows how the change's verification ended, and o shows its
// output in place of the diff and back.
func TestReviewShowsVerification(t *testing.T) {
	styles := themes.New(themes.Dark())
	hunk := event.ReviewHunk{Header: "@@ -1 +1 @@", Lines: []event.DiffLine{{Kind: '-', Text: "a"}, {Kind: '+', Text: "b"}}}
	v := &event.Verification{Command: "go test ./...", Failing: 3, Exit: 1, Output: "--- FAIL: TestA\n--- FAIL: TestB\n--- FAIL: TestC\nFAIL"}
	rv := event.Review{From: "main@1b96d60", Verify: v, Files: []event.ReviewFile{{Path: "a.txt", Hunks: []event.ReviewHunk{hunk}}}}
	m := New(nil, LoadedMsg{Agent: "general-purpose-1", Review: rv}, &styles)
	m.SetSize(80, 20)
	view := ansi.Strip(m.View())
	if !strings.Contains(view, "from main@1b96d60 · ✗ 3 failing") || !strings.Contains(view, "o output") || strings.Contains(view, "--- FAIL: TestB") {
		t.Fatalf("review:\n%s", view)
	}
	o := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'o'}}
	m.Update(o)
	if view := ansi.Strip(m.View()); !strings.Contains(view, "$ go test ./...") || !strings.Contains(view, "--- FAIL: TestB") || strings.Contains(view, "@@ -1 +1 @@") {
		t.Fatalf("after o:\n%s", view)
	}
	m.Update(o)
	if view := ansi.Strip(m.View()); !strings.Contains(view, "@@ -1 +1 @@") {
		t.Fatalf("after o again:\n%s", view)
	}
}
