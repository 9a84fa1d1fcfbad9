package pane

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// TestPlacementShows: a child placed in a container names where it runs
// and its start latency in the live header, the fold line and Info; a
// local child's lines stay as they were, and Info names it local.
func TestPlacementShows(t *testing.T) {
	placed := event.AgentPlaced{Meta: at(time.Second), Where: "container alpine:3", Latency: 820 * time.Millisecond}
	events := append(started(), event.Event(placed))
	p := newPane()
	play(p, events)
	header := ansi.Strip(p.View(120, 1))
	if !strings.Contains(header, "container alpine:3 (started in 820ms)") {
		t.Fatalf("live header %q does not say where the child runs", header)
	}
	play(p, finished(event.StatusCompleted, "")[len(started()):])
	fold := ansi.Strip(p.View(120, 1))
	if !strings.Contains(fold, "container alpine:3 (started in 820ms)") {
		t.Fatalf("fold line %q", fold)
	}
	if in := p.Info(); in.Where != "container alpine:3" || in.StartLatency != 820*time.Millisecond {
		t.Fatalf("info %q %v", in.Where, in.StartLatency)
	}

	local := newPane()
	play(local, append(started(), event.AgentPlaced{Meta: at(time.Second), Where: "local", Latency: time.Millisecond}))
	if h := ansi.Strip(local.View(120, 1)); strings.Contains(h, "local") {
		t.Fatalf("a local child's header %q names its runner", h)
	}
	if in := local.Info(); in.Where != "local" {
		t.Fatalf("info where %q, want local", in.Where)
	}
}
