package markdown

import (
	"fmt"
	"strings"
	"testing"
)

// longAnswer is a message of about 300 lines at 80 columns, its sections
// told apart so no block is drawn from another's cache entry.
func longAnswer() string {
	var b strings.Builder
	for i := 0; b.Len() < 300*60; i++ {
		b.WriteString(strings.ReplaceAll(rich, "key", fmt.Sprintf("key%d", i)) + "\n\n")
	}
	return b.String()
}

// BenchmarkRender300Lines draws a whole long answer with a cold cache, as
// when a finished message is first shown or the terminal is resized.
func BenchmarkRender300Lines(b *testing.B) {
	doc := longAnswer()
	lines := 0
	for b.Loop() {
		lines = len(newRenderer().Render(doc, 80))
	}
	b.ReportMetric(float64(lines), "lines")
}

// BenchmarkStreamDelta is the cost of one delta of four bytes while a
// long answer streams, drawing after every delta (the worst case: the UI
// draws at most once per frame).
func BenchmarkStreamDelta(b *testing.B) {
	doc := longAnswer()
	const delta = 4
	deltas := 0
	for b.Loop() {
		s := newRenderer().NewStream()
		for n := delta; n < len(doc)+delta; n += delta {
			s.Lines(doc[:min(n, len(doc))], 80)
			deltas++
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(deltas), "ns/delta")
}
