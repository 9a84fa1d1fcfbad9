package child_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/sessiontest"
)

// With max_depth 2 a child delegates too: two grandchildren asked for in
// one message run side by side, each the child's own (its id is their
// parent), and the child reports what they found. Whatever runner places
// the child, its task calls are the session's to place and show.
func TestChildDelegatesToGrandchildren(t *testing.T) {
	s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		results := sessiontest.ToolMessages(r)
		switch prompt := r.Body.Messages[1].Content; {
		case strings.HasPrefix(prompt, "look at "):
			w.Text("found " + strings.TrimPrefix(prompt, "look at "))
		case prompt == "plan it" && len(results) == 0:
			w.ToolCalls(sessiontest.TaskCall("m", "general-purpose", "plan", "split and report"))
		case prompt == "split and report" && len(results) == 0:
			if !slices.Contains(r.ToolNames(), child.TaskToolName) {
				t.Error("the child was not offered task")
			}
			w.ToolCalls(sessiontest.TaskCall("g1", "explore", "left", "look at left"), sessiontest.TaskCall("g2", "explore", "right", "look at right"))
		case prompt == "split and report":
			w.Text("report: " + strings.Join(results, " | "))
		default:
			w.Text("done")
		}
	}, func(c *engine.Config) { c.Limits.MaxDepth = 2 })
	log := sessiontest.RunTurn(t, s, "plan it", nil)
	var parent event.AgentID
	grandchildren := map[string]event.AgentFinished{}
	for _, f := range sessiontest.Of[event.AgentFinished](log) {
		switch f.Parent {
		case event.MainAgent:
			parent = f.Agent
			if f.Status != event.StatusCompleted || !strings.Contains(f.Text, "found left") || !strings.Contains(f.Text, "found right") {
				t.Fatalf("the child ended %s: %q", f.Status, f.Text)
			}
		default:
			grandchildren[f.Description] = f
		}
	}
	for _, d := range []string{"left", "right"} {
		if g, ok := grandchildren[d]; !ok || g.Parent != parent || g.Status != event.StatusCompleted {
			t.Fatalf("grandchild %s: %+v (the child is %s)", d, g, parent)
		}
	}
	if len(srv.Requests()) != 6 {
		t.Errorf("%d requests, want 6", len(srv.Requests()))
	}
}
