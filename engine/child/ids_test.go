package child

import (
	"testing"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// TestIDsReadAsOneWordAndNeverRepeat: an id is the type's name in one
// lower-case word and the session-wide number; a resumed transcript's
// ids move the count past them, and ids that carry no number do not.
func TestIDsReadAsOneWordAndNeverRepeat(t *testing.T) {
	var s ids
	for _, c := range []struct {
		typeName string
		want     event.AgentID
		n        int
	}{
		{"Explore", "explore-1", 1},
		{"review/security", "review-security-2", 2},
		{"  Deep   Plan ", "deep-plan-3", 3},
		{"", "agent-4", 4},
	} {
		if id, n := s.next(c.typeName); id != c.want || n != c.n {
			t.Fatalf("next(%q) = %s, %d; want %s, %d", c.typeName, id, n, c.want, c.n)
		}
	}
	for _, agent := range []event.AgentID{"explore-12", "main", "plan-x", "explore-7"} {
		s.noteUsed(event.TextDelta{Meta: event.Meta{Agent: agent}})
	}
	if id, n := s.next("explore"); id != "explore-13" || n != 13 {
		t.Fatalf("after a resume that used explore-12: %s, %d", id, n)
	}
}
