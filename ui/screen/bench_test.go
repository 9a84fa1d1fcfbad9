package screen

import (
	"fmt"
	"io"
	"strings"
	"testing"
)

// BenchmarkDrawStreamingFrame draws a 120×40 frame in which, as while an
// answer streams, the last few lines of the conversation and the status
// line change and the rest is kept: the per-frame cost of the screen.
func BenchmarkDrawStreamingFrame(b *testing.B) {
	s := New(io.Discard, Modes{})
	s.Open()
	s.Resize(120, 40)
	lines := make([]string, 40)
	for i := range lines {
		lines[i] = fmt.Sprintf("\x1b[38;2;121;162;247m%s\x1b[0m line %d", strings.Repeat("word ", 18), i)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		lines[30] = fmt.Sprintf("  streaming word%d word%d word%d", i, i+1, i+2)
		lines[36] = fmt.Sprintf("⣾ working · %ds · ↓ %d tok", i/30, i)
		s.Draw(strings.Join(lines, "\n"))
	}
}
