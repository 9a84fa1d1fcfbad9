package review

import (
	"strings"
	"testing"

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
