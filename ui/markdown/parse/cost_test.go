package parse

import (
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/ui/markdown/internal/costgrowth"
)

// Text a hostile repository can have a model echo costs its length, not
// its square or cube: sixteen times as much of it costs less than five
// times as much per byte (a square would cost sixteen times as much per
// byte). Each shape used to: nesting a thousand deep scanned the rest of
// the indent again for every level it passed, a line of list markers
// looked for a rule through the rest of the line at each marker, and
// each "](<" read the rest of the line for its ">".
func TestHostileTextCostsItsLength(t *testing.T) {
	for name, text := range map[string]func(n int) string{
		"lists nested by indent": func(n int) string {
			var b strings.Builder
			for i := range n / 4 {
				b.WriteString(strings.Repeat("  ", i))
				b.WriteString("- a\n")
			}
			return b.String()
		},
		"a line of list markers": func(n int) string { return strings.Repeat("- ", n*4) + "a\n" },
		"a line of angle links":  func(n int) string { return strings.Repeat("[a](<", n*2) },
	} {
		small, large := text(300), text(4800)
		growth := costgrowth.Growth(small, large, func(src string) func() {
			return func() {
				for _, b := range Parse(src).Blocks {
					if p, ok := b.(*Paragraph); ok {
						Inlines(p.Text())
					}
				}
			}
		})
		t.Logf("%s: growth %.2f", name, growth)
		if growth > costgrowth.Limit {
			t.Errorf("%s: %d bytes cost %.1f times as much per byte as %d bytes", name, len(large), growth, len(small))
		}
	}
}
