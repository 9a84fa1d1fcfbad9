package markdown

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/muesli/termenv"
)

// TestCorpus draws every reply in testdata/corpus at a wide and a narrow
// width, in colour (escapes shown as ␛), and streams it line by line: the
// goldens hold the lines, their styles and how many finished lines the
// stream had drawn after each complete line, so a change of parser that
// draws anything differently, or finishes a block at another line, shows.
func TestCorpus(t *testing.T) {
	withProfile(t, termenv.TrueColor)
	paths, err := filepath.Glob("testdata/corpus/*.md")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			golden.RequireEqual(t, []byte(corpusDrawing(newRenderer(), string(src))))
		})
	}
}

// corpusDrawing is what TestCorpus keeps of a document.
func corpusDrawing(r *Renderer, doc string) string {
	var b strings.Builder
	for _, width := range []int{80, 36} {
		fmt.Fprintf(&b, "== width %d\n", width)
		for _, line := range r.Render(doc, width) {
			b.WriteString(strings.ReplaceAll(line, "\x1b", "␛") + "\n")
		}
	}
	b.WriteString("== finished lines while streaming at 80, after each line\n")
	s := r.NewStream()
	for at := 0; at < len(doc); {
		next := strings.IndexByte(doc[at:], '\n')
		if next < 0 {
			at = len(doc)
		} else {
			at += next + 1
		}
		s.Lines(doc[:at], 80)
		fmt.Fprintf(&b, "%d ", len(s.lines))
	}
	b.WriteString("\n")
	return b.String()
}
