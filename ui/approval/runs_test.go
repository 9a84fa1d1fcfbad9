package approval

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// TestCardSaysWhereTheChildRuns: a delegation card names a runner other
// than local, cleaned of escapes; a local child's card does not.
func TestCardSaysWhereTheChildRuns(t *testing.T) {
	m, timers := queue(100, 30)
	req := delegation("a1", "Explore", "map the project")
	req.Delegation.Runs = "container golang:1.25\x1b[2J"
	armed(t, m, timers, event.Meta{Agent: "explore-1"}, req)
	view := m.View()
	if !strings.Contains(ansi.Strip(view), "runs in container golang:1.25") || strings.Contains(view, "\x1b[2J") {
		t.Fatalf("card:\n%s", ansi.Strip(view))
	}
	m, timers = queue(100, 30)
	req = delegation("a2", "Explore", "map the project")
	req.Delegation.Runs = "local"
	armed(t, m, timers, event.Meta{Agent: "explore-2"}, req)
	if view := ansi.Strip(m.View()); strings.Contains(view, "runs ") {
		t.Fatalf("a local child's card names its runner:\n%s", view)
	}
}
