package termtext

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// Fit leaves a line that fits as it is, colours and wide characters
// measured as the terminal draws them, and cuts one that does not with
// a mark, never past the width.
func TestFitMeasuresAsTheTerminalDraws(t *testing.T) {
	red := "\x1b[31m"
	for _, c := range []struct {
		line  string
		width int
		same  bool
	}{
		{"plain", 5, true},
		{red + "plain" + "\x1b[0m", 5, true},
		{"日本語", 6, true},
		{"日本語", 5, false},
		{red + "a long coloured line" + "\x1b[0m", 10, false},
		{"\x1b[31", 2, true}, // a sequence with no final byte is measured in full
		{"tab\there", 4, false},
	} {
		got := Fit(c.line, c.width)
		if w := ansi.StringWidth(got); w > c.width {
			t.Errorf("Fit(%q, %d) is %d cells", c.line, c.width, w)
		}
		if (got == c.line) != c.same {
			t.Errorf("Fit(%q, %d) = %q", c.line, c.width, got)
		}
		if !c.same && !strings.HasSuffix(ansi.Strip(got), "…") {
			t.Errorf("Fit(%q, %d) = %q has no mark of the cut", c.line, c.width, got)
		}
	}
	if Fit("abc", -1) != "" {
		t.Error("a negative width is not empty")
	}
}

// Wrap breaks at spaces where it can and mid-word where it must, losing
// nothing.
func TestWrapLosesNothing(t *testing.T) {
	got := Wrap("a supercalifragilistic word", 8)
	for _, line := range strings.Split(got, "\n") {
		if ansi.StringWidth(line) > 8 {
			t.Errorf("line %q is wider than 8", line)
		}
	}
	if strings.ReplaceAll(strings.ReplaceAll(got, "\n", ""), " ", "") != "asupercalifragilisticword" {
		t.Errorf("Wrap lost text: %q", got)
	}
	if Wrap("xy", 0) != "x\ny" {
		t.Errorf("width 0 wraps at 1: %q", Wrap("xy", 0))
	}
}

// Path shortens the home folder to ~ and cleans what a repository could
// name its folders with.
func TestPathShortensHome(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	for dir, want := range map[string]string{
		filepath.Join(home, "src", "app"): "~/src/app",
		home:                              "~",
		"/srv/app":                        "/srv/app",
		"":                                ".",
		filepath.Join(home, "evil\x1b]0;pwned\x07"): "~/evil",
	} {
		if got := Path(dir); got != filepath.FromSlash(want) && !strings.HasPrefix(got, filepath.FromSlash(want)) || strings.ContainsAny(got, "\x1b\x07") {
			t.Errorf("Path(%q) = %q, want %q", dir, got, want)
		}
	}
}
