package diffview

import (
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/seed-e4e525a6/baton/themes"
)

// Each kind of line gets its own colour and keeps its text; the trailing
// newline makes no empty last line.
func TestLinesPaintsEachKind(t *testing.T) {
	old := lipgloss.ColorProfile()
	lipgloss.SetColorProfile(termenv.TrueColor)
	t.Cleanup(func() { lipgloss.SetColorProfile(old) })
	styles := themes.New(themes.Dark())
	diff := "--- a/x.go\n+++ b/x.go\n@@ -1,2 +1,2 @@\n keep\n-old\n+new\n"
	lines := Lines(&styles, diff)
	if got := ansi.Strip(strings.Join(lines, "\n")); got != strings.TrimRight(diff, "\n") {
		t.Fatalf("text changed:\n%s", got)
	}
	st := styles.Diff
	for i, want := range []string{st.File.Render("--- a/x.go"), st.File.Render("+++ b/x.go"), st.Hunk.Render("@@ -1,2 +1,2 @@"),
		st.Context.Render(" keep"), st.Del.Render("-old"), st.Add.Render("+new")} {
		if lines[i] != want {
			t.Errorf("line %d is %q, want %q", i, lines[i], want)
		}
	}
	if lines[4] == lines[5] || lines[3] == st.Add.Render(" keep") && st.Add.Render("x") != st.Context.Render("x") {
		t.Error("added and removed lines look alike")
	}
}

// A preview is a diff when it starts as one or holds a hunk; a command
// line is not.
func TestLooksTellsADiffFromACommand(t *testing.T) {
	for s, want := range map[string]bool{
		"--- a/x\n+++ b/x\n@@ -1 +1 @@\n": true, "@@ -1 +1 @@\n-a\n+b": true, "edit x.go\n@@ -3 +3 @@\n": true,
		"rm -rf build": false, "git diff --stat": false, "echo '@@'": false,
	} {
		if got := Looks(s); got != want {
			t.Errorf("Looks(%q) = %v, want %v", s, got, want)
		}
	}
}
