package child_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/sessiontest"
)

func TestQueuedChildrenRunInTheOrderRequested(t *testing.T) {
	var mu sync.Mutex
	var order []string
	s, _ := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case sessiontest.IsChild(r):
			mu.Lock()
			order = append(order, r.LastUser())
			mu.Unlock()
			w.Text("ok")
		case len(sessiontest.ToolMessages(r)) == 0:
			w.ToolCalls(sessiontest.TaskCall("a", "explore", "first", "job 1"), sessiontest.TaskCall("b", "review", "second", "job 2"),
				sessiontest.TaskCall("c", "general-purpose", "third", "job 3"))
		default:
			w.Text("done")
		}
	}, func(c *engine.Config) { c.Limits.MaxConcurrent = 1 })
	log := sessiontest.RunTurn(t, s, "go", nil)
	if strings.Join(order, ",") != "job 1,job 2,job 3" {
		t.Fatalf("children ran in the order %v", order)
	}
	if len(sessiontest.Of[event.AgentQueued](log)) != 2 {
		t.Fatalf("%d queued events, want 2", len(sessiontest.Of[event.AgentQueued](log)))
	}
}

// TestSlotsPerRunner: a runner's own max_concurrent replaces [limits]
// max_concurrent for its children, and the queue is shown as for any
// other: three children, two slots, one queued.
func TestSlotsPerRunner(t *testing.T) {
	var runner string
	s, _ := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case sessiontest.IsChild(r):
			w.Text("ok")
		case len(sessiontest.ToolMessages(r)) == 0:
			w.ToolCalls(sessiontest.TaskCall("a", "explore", "first", "job 1"), sessiontest.TaskCall("b", "review", "second", "job 2"),
				sessiontest.TaskCall("c", "general-purpose", "third", "job 3"))
		default:
			w.Text("done")
		}
	}, func(c *engine.Config) {
		c.Limits.MaxConcurrent = 1
		runner = c.Runner
		if runner == "" {
			runner = child.RunnerLocal
		}
		c.RunnerMaxConcurrent = map[string]int{runner: 2}
	})
	log := sessiontest.RunTurn(t, s, "go", nil)
	if q := sessiontest.Of[event.AgentQueued](log); len(q) != 1 || q[0].Position != 1 {
		t.Fatalf("queued %+v, want one child first in line", q)
	}
	placed := sessiontest.Of[event.AgentPlaced](log)
	if len(placed) != 3 || placed[0].Where != runner {
		t.Fatalf("placed %+v, want three children placed by the %s runner", placed, runner)
	}
}

// A child stopped while it waits for a slot ends cancelled without
// asking the model, and frees its place in the line: the child behind
// it runs once the first ends.
func TestStoppingAQueuedChildFreesItsPlace(t *testing.T) {
	release := make(sessiontest.Gate)
	s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case sessiontest.IsChild(r) && r.LastUser() == "job 1":
			if release.Wait(w) {
				w.Text("one done")
			}
		case sessiontest.IsChild(r):
			w.Text("done: " + r.LastUser())
		case len(sessiontest.ToolMessages(r)) == 0:
			w.ToolCalls(sessiontest.TaskCall("a", "explore", "first", "job 1"), sessiontest.TaskCall("b", "explore", "second", "job 2"),
				sessiontest.TaskCall("c", "explore", "third", "job 3"))
		default:
			w.Text("done")
		}
	}, func(c *engine.Config) { c.Limits.MaxConcurrent = 1 })
	log := sessiontest.WatchTurn(t, s, "go", func(ev event.Event) {
		if q, ok := ev.(event.AgentQueued); ok && q.Description == "third" {
			if err := s.StopAgent(q.Agent); err != nil {
				t.Errorf("stopping a queued child: %v", err)
			}
			close(release)
		}
	})
	ended := map[string]event.Status{}
	for _, f := range sessiontest.Of[event.AgentFinished](log) {
		ended[f.Description] = f.Status
	}
	if ended["first"] != event.StatusCompleted || ended["second"] != event.StatusCompleted || ended["third"] != event.StatusCancelled {
		t.Fatalf("children ended %v, want the stopped third cancelled and the others completed", ended)
	}
	if n := len(sessiontest.ChildByPrompt(srv.Requests(), "job 3")); n != 0 {
		t.Fatalf("the child stopped in the line asked the model %d times", n)
	}
}
