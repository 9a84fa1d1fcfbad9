package engine

import (
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

// endless is a main agent that answers its prompt and every background
// result with another background task, as the runaway model did (1,493
// main requests in 90 s). Children end when the test lets one go.
func endless(release chan struct{}, mainRequests *atomic.Int32) llmtest.Responder {
	return func(r *llmtest.Request, w *llmtest.Writer) {
		if isChild(r) {
			select {
			case <-release:
				w.Text("found something")
			case <-w.Context().Done():
			}
			return
		}
		mainRequests.Add(1)
		msgs := r.Body.Messages
		switch last := msgs[len(msgs)-1]; {
		case lastIsUser(r, "that is enough"):
			w.Text("ok, stopping")
		case last.Role == "tool":
			w.Text("waiting for the result")
		default:
			w.ToolCalls(bgCall(fmt.Sprintf("t%d", r.Index), "look again", "Look again."))
		}
	}
}

// TestRunawayBackgroundLoopStopsAtTheWakeBound: the model starts a
// background task for every result. After the prompt's turn and three
// wake turns (wake_turns_per_prompt = 3) the next result is held for the
// person (ResultsHeld), the session is quiet (a headless run exits), and
// the next prompt delivers the result.
func TestRunawayBackgroundLoopStopsAtTheWakeBound(t *testing.T) {
	release := make(chan struct{}, 16)
	var mainRequests atomic.Int32
	s, srv := newTestSession(t, endless(release, &mainRequests), func(c *Config) { c.Limits.WakeTurns = 3 })
	if err := s.Submit("keep looking"); err != nil {
		t.Fatal(err)
	}
	wakes := 0
	var held event.ResultsHeld
	readUntil(t, s, func(ev event.Event) bool {
		switch e := ev.(type) {
		case event.TurnStarted:
			if e.Agent == event.MainAgent && e.Wake {
				wakes++
			}
		case event.TurnEnded:
			if e.Agent == event.MainAgent {
				release <- struct{}{} // the turn's child ends once the turn has
			}
		case event.ResultsHeld:
			held = e
		}
		return held.WakeTurns != 0
	})
	if wakes != 3 || !s.Quiet() {
		t.Fatalf("%d wake turns, quiet %v; want 3 and quiet", wakes, s.Quiet())
	}
	if got := mainRequests.Load(); got != 8 {
		t.Errorf("%d main requests, want 8 (two per turn, four turns)", got)
	}
	if !slices.Equal(held.Children, []event.AgentID{"explore-4"}) || held.WakeTurns != 3 {
		t.Errorf("held %+v, want explore-4's result after 3 wake turns", held)
	}
	log := runTurn(t, s, "that is enough", nil)
	if log.End.Text != "ok, stopping" {
		t.Fatalf("next turn ended %q", log.End.Text)
	}
	last := srv.Requests()[len(srv.Requests())-1]
	if !hasUser(last, "explore-4 (look again) ended in the background") {
		t.Error("the waiting result was not delivered with the next prompt")
	}
	if delivered := eventsOf[event.ResultDelivered](log); len(delivered) != 1 || delivered[0].Child != "explore-4" {
		t.Errorf("delivered %+v", delivered)
	}
}

// TestResultQueuedInTheLastWakeTurnIsHeld: a result that arrives while
// the last allowed wake turn makes its final request is announced as
// queued for that turn; when the turn ends without taking it, ResultsHeld
// says it now waits for the person.
func TestResultQueuedInTheLastWakeTurnIsHeld(t *testing.T) {
	release, queued := make(chan struct{}, 4), make(gate)
	s, _ := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case isChild(r):
			select {
			case <-release:
				w.Text("found something")
			case <-w.Context().Done():
			}
		case r.HasToolResult("(id explore-2)"):
			// The wake turn's last request: its child ends meanwhile.
			release <- struct{}{}
			if queued.Wait(w) {
				w.Text("waiting")
			}
		case hasUser(r, "explore-1 (look) ended in the background"):
			w.ToolCalls(bgCall("t2", "look again", "Look again."))
		case r.HasToolResult("(id explore-1)"):
			w.Text("waiting")
		default:
			w.ToolCalls(bgCall("t1", "look", "Look."))
		}
	}, func(c *Config) { c.Limits.WakeTurns = 1 })
	runTurn(t, s, "look", nil)
	release <- struct{}{}
	var held event.ResultsHeld
	readUntil(t, s, func(ev event.Event) bool {
		if q, ok := ev.(event.ResultQueued); ok && q.Agent == "explore-2" {
			if q.Waits {
				t.Error("a result queued during a turn was said to wait")
			}
			close(queued)
		}
		held, _ = ev.(event.ResultsHeld)
		return held.WakeTurns != 0
	})
	if !slices.Equal(held.Children, []event.AgentID{"explore-2"}) || held.WakeTurns != 1 || !s.Quiet() {
		t.Fatalf("held %+v, quiet %v", held, s.Quiet())
	}
}

// TestBackgroundTasksPerPromptAreBounded: past background_per_prompt,
// a task call asking for the background gets an error the model can act
// on, and a new prompt renews the allowance.
func TestBackgroundTasksPerPromptAreBounded(t *testing.T) {
	prompts := []string{"start three", "start three again"}
	s, _ := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case isChild(r):
			w.Text("found")
		case slices.ContainsFunc(prompts, func(p string) bool { return lastIsUser(r, p) }):
			w.ToolCalls(bgCall("a", "one", "One."), bgCall("b", "two", "Two."), bgCall("c", "three", "Three."))
		default:
			w.Text("done")
		}
	}, func(c *Config) { c.Limits.BackgroundPerPrompt = 2; c.NoWakeOnResult = true })
	for _, prompt := range prompts {
		log := runTurn(t, s, prompt, nil)
		outcomes := map[string]string{}
		for _, e := range eventsOf[event.ToolFinished](log) {
			if e.Agent == event.MainAgent && e.Name == child.TaskToolName {
				outcomes[e.CallID] = fmt.Sprintf("error=%v %s", e.IsError, e.Output)
			}
		}
		if len(outcomes) != 3 || !strings.HasPrefix(outcomes["a"], "error=false started #") || !strings.HasPrefix(outcomes["b"], "error=false started #") ||
			!strings.HasPrefix(outcomes["c"], "error=true background: 2 sub-agents were sent to the background since the person's last prompt, the most allowed ([limits] background_per_prompt)") {
			t.Fatalf("%s: task outcomes %q", prompt, outcomes)
		}
	}
}
