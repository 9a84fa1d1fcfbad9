package agent_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// The agent's ToolBegins hears of a call as the model begins it, but
// only of a call to a tool the request offered: a model naming a tool it
// was not given (a task call where delegation is off) readies nothing,
// and comes back told the tool is unknown.
func TestToolBeginsHearsOnlyOfferedTools(t *testing.T) {
	var mu sync.Mutex
	var told []string
	a, evs := newAgent(t, func(r *llmtest.Request, w *llmtest.Writer) {
		if r.Index == 0 {
			w.ToolCalls(
				llmtest.Call{Name: "task", Args: `{"prompt":"x"}`},
				llmtest.Call{Name: "echo", Args: `{"text":"hi"}`},
			)
			return
		}
		w.Text("done")
	}, func(c *agent.Config) {
		c.ToolBegins = func(name string) bool {
			mu.Lock()
			defer mu.Unlock()
			told = append(told, name)
			return false
		}
	})
	if res := a.Run(context.Background(), "go"); res.Status != event.StatusCompleted {
		t.Fatalf("run: %s %s", res.Status, res.Reason)
	}
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(told, []string{"echo"}) {
		t.Fatalf("ToolBegins heard of %q, want only the offered echo", told)
	}
	var unknown bool
	for _, f := range evs.finished() {
		if f.Name == "task" && f.IsError {
			unknown = true
		}
	}
	if !unknown {
		t.Fatalf("the call to the tool not offered did not come back as an error: %+v", evs.finished())
	}
}

// The agent's RequestSent hears of each request that offers tools once
// the request has reached the endpoint and before the model's reply has
// begun, with the tools offered: the endpoint's handler waits to hear
// that the agent was told before it replies (a minute guards a hang).
func TestRequestSentHearsOfEachRequestBeforeItsReply(t *testing.T) {
	sent := make(chan []string, 4)
	var before []bool
	a, _ := newAgent(t, func(r *llmtest.Request, w *llmtest.Writer) {
		select {
		case names := <-sent:
			before = append(before, slices.Contains(names, "echo"))
		case <-time.After(time.Minute):
			before = append(before, false)
		}
		if r.Index == 0 {
			w.ToolCalls(llmtest.Call{Name: "echo", Args: `{"text":"hi"}`})
			return
		}
		w.Text("done")
	}, func(c *agent.Config) {
		c.RequestSent = func(offered *tools.Set) { sent <- offered.Names() }
	})
	if res := a.Run(context.Background(), "go"); res.Status != event.StatusCompleted {
		t.Fatalf("run: %s %s", res.Status, res.Reason)
	}
	if !slices.Equal(before, []bool{true, true}) {
		t.Fatalf("told of the requests before their replies: %v, want both", before)
	}
}
