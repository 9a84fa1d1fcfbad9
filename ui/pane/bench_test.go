package pane

import (
	"testing"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// BenchmarkPaneViewStreaming is one frame of a streaming child: a text
// delta arrives and the pane is drawn.
func BenchmarkPaneViewStreaming(b *testing.B) {
	p := newPane()
	w, h := 120, 6
	play(p, tooling())
	delta := event.TextDelta{Meta: at(0), Text: "the middleware checks the session cookie, then "}
	b.ReportAllocs()
	for b.Loop() {
		p.Apply(delta)
		_ = p.View(w, h)
	}
}
