package markdown

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/ui/markdown/internal/costgrowth"
)

// A word longer than many lines (a minified line, base64, a long URL)
// costs its length to draw, not its square: sixteen times as long costs
// less than five times as much per byte (a square, sixteen times). Each line cut from it used to
// measure the whole rest of it.
func TestALongWordCostsItsLength(t *testing.T) {
	for name, word := range map[string]func(n int) string{
		"ascii":  func(n int) string { return strings.Repeat("x", n) },
		"wide":   func(n int) string { return strings.Repeat("語", n/3) },
		"accent": func(n int) string { return strings.Repeat("e\u0301", n/3) },
	} {
		small, large := word(2000), word(32000)
		// Each run draws with a new renderer, which keeps nothing of the
		// last.
		growth := costgrowth.Growth(small, large, func(src string) func() {
			r := newRenderer()
			return func() { r.Render(src, 80) }
		})
		t.Logf("%s: growth %.2f", name, growth)
		if growth > costgrowth.Limit {
			t.Errorf("%s: %d bytes cost %.1f times as much per byte as %d bytes", name, len(large), growth, len(small))
		}
	}
}

// A long word is cut into lines that each fill the width, whatever its
// characters: wide ones, and letters with combining accents.
func TestALongWordFillsItsLines(t *testing.T) {
	r := newRenderer()
	for _, word := range []string{strings.Repeat("x", 1000), strings.Repeat("語", 300), strings.Repeat("e\u0301", 500)} {
		lines := r.Render(word, 80)
		var joined strings.Builder
		for i, line := range lines {
			plain := ansi.Strip(line)
			if w := cells(plain); w != 80 && i < len(lines)-1 {
				t.Fatalf("line %d of %d is %d cells wide", i, len(lines), w)
			}
			joined.WriteString(plain)
		}
		if joined.String() != word {
			t.Fatalf("the word's lines do not join back into it")
		}
	}
}

// A long word whose clusters a narrow line must split (an emoji with its
// variation selector, two cells, in a one-cell line), so that the widths
// of its pieces do not add up to its own, is drawn whole and the drawing
// ends: the width left is measured again rather than trusted.
func TestALongWordOfSplitClustersIsDrawnWhole(t *testing.T) {
	r := newRenderer()
	for _, word := range []string{strings.Repeat("☺\ufe0f", 200), "x" + strings.Repeat("\u0301", 500)} {
		for _, width := range []int{1, 2, 3, 80} {
			var joined strings.Builder
			for _, line := range r.Render(word, width) {
				joined.WriteString(ansi.Strip(line))
			}
			if joined.String() != word {
				t.Fatalf("width %d: %q drawn as %q", width, word[:12], joined.String())
			}
		}
	}
}
