package agent_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// hold is a tool that calls its start, then holds until its call's
// context ends: a long command the agent is stopped in.
type hold struct{ start func() }

func (hold) Name() string                 { return "hold" }
func (hold) Description() string          { return "runs until stopped" }
func (hold) Schema() json.RawMessage      { return json.RawMessage(`{"type":"object"}`) }
func (hold) ReadOnly() bool               { return true }
func (hold) Title(json.RawMessage) string { return "hold" }
func (h hold) Run(ctx context.Context, _ json.RawMessage) (tools.Result, error) {
	if h.start != nil {
		h.start()
	}
	<-ctx.Done()
	return tools.Result{}, context.Cause(ctx)
}

// holdThenReport scripts a model that calls hold, then, asked for its
// final report (a request without tools), reports.
func holdThenReport() llmtest.Responder {
	return func(r *llmtest.Request, w *llmtest.Writer) {
		if len(r.Body.Tools) == 0 {
			w.Text("final report: held until stopped")
			return
		}
		w.ToolCalls(llmtest.Call{ID: "h1", Name: "hold", Args: `{}`})
	}
}

// lastAsk is the final report's prompt: the last user message of the
// last request.
func lastAsk(srv *llmtest.Server) string {
	reqs := srv.Requests()
	return reqs[len(reqs)-1].LastUser()
}

// A wind-down ends the step under way (the running tool is stopped) and
// the agent reports in one last step without tools; the run ends
// stopped, with the report as its text.
func TestWindDownStopsTheToolAndAsksForTheReport(t *testing.T) {
	var a *agent.Agent
	srv := llmtest.NewServer(t, holdThenReport())
	a, _ = newAgentOn(t, srv, func(c *agent.Config) {
		c.Tools = tools.NewSet(hold{start: func() { a.WindDown() }})
	})
	res := a.Run(context.Background(), "work until told")
	if res.Status != event.StatusStopped || res.Reason != "wound down by the person" || res.Text != "final report: held until stopped" {
		t.Fatalf("result %+v", res)
	}
	if ask := lastAsk(srv); !strings.HasPrefix(ask, "The person supervising you asked you to wind down, so you cannot call tools any more.") {
		t.Errorf("the final report was asked with %q", ask)
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("%d requests, want the tool step and the report", n)
	}
	// Wound down before a run, the next run reports at once.
	before := len(srv.Requests())
	if res := a.Run(context.Background(), "more"); res.Status != event.StatusStopped || len(srv.Requests()) != before+1 {
		t.Errorf("a run after the wind-down: %+v after %d requests", res, len(srv.Requests())-before)
	}
}

// A run over its time limit stops its tool and reports in the time
// ctx still has.
func TestTimeLimitStopsTheToolAndAsksForTheReport(t *testing.T) {
	srv := llmtest.NewServer(t, holdThenReport())
	a, _ := newAgentOn(t, srv, func(c *agent.Config) {
		c.Tools = tools.NewSet(hold{})
		c.TimeLimit = time.Millisecond
	})
	res := a.Run(context.Background(), "work")
	if res.Status != event.StatusTimedOut || res.Reason != "time limit of 0s reached" || res.Text != "final report: held until stopped" {
		t.Fatalf("result %+v", res)
	}
	if ask := lastAsk(srv); !strings.HasPrefix(ask, "Your time limit of 0s reached, so you cannot call tools any more.") {
		t.Errorf("the final report was asked with %q", ask)
	}
}

// A run whose tokens pass its budget (its own requests and what its
// children spent) reports without tools and ends budget exceeded.
func TestTokenBudgetEndsTheRunWithAReport(t *testing.T) {
	srv := llmtest.NewServer(t, func(r *llmtest.Request, w *llmtest.Writer) {
		if len(r.Body.Tools) == 0 {
			w.Text("report within budget")
			return
		}
		w.ToolCalls(llmtest.Call{Name: "echo", Args: `{"text":"more"}`})
	})
	arrived := false
	a, evs := newAgentOn(t, srv, func(c *agent.Config) {
		c.Budget = event.Budget{Tokens: 1000}
		c.MaxSteps = 50
		// Results of background children bring what they spent.
		c.Arrivals = func(*agent.Agent) event.Usage {
			if arrived {
				return event.Usage{}
			}
			arrived = true
			return event.Usage{TotalTokens: 5000, Requests: 3}
		}
	})
	res := a.Run(context.Background(), "spend")
	if res.Status != event.StatusBudgetExceeded || !strings.Contains(res.Reason, "token budget reached") || res.Text != "report within budget" {
		t.Fatalf("result %+v", res)
	}
	if res.Stats.Usage.TotalTokens < 5000 || res.Stats.Usage.Requests < 4 {
		t.Errorf("the run's usage %+v leaves out what arrived", res.Stats.Usage)
	}
	var reported bool
	for _, ev := range evs.all {
		if u, ok := ev.(event.UsageReported); ok && u.Request.TotalTokens == 5000 {
			reported = true
		}
	}
	if !reported {
		t.Error("the usage that arrived was not reported")
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d requests: the budget was spent before the first step, so only the report is asked", n)
	}
}

// A run cancelled mid-answer keeps what was said, marked interrupted, so
// a follow-up turn knows it; the partial text is the run's text.
func TestCancelledAnswerIsKeptMarkedInterrupted(t *testing.T) {
	srv := llmtest.NewServer(t, func(r *llmtest.Request, w *llmtest.Writer) {
		w.Chunk(`{"choices":[{"index":0,"delta":{"content":"half an ans"}}]}`)
		<-w.Context().Done()
	})
	ctx, cancel := context.WithCancelCause(context.Background())
	var seen []event.Event
	a, _ := newAgentOn(t, srv, func(c *agent.Config) {
		// The person stops the agent once the first words are shown.
		c.Emit = func(ev event.Event) {
			seen = append(seen, ev)
			if _, ok := ev.(event.TextDelta); ok {
				cancel(agent.ErrStopped)
			}
		}
	})
	res := a.Run(ctx, "answer slowly")
	if res.Status != event.StatusCancelled || res.Reason != "stopped by the person" || res.Text != "half an ans" {
		t.Fatalf("result %+v", res)
	}
	h := a.History()
	if last := h[len(h)-1]; last.Role != "assistant" || last.Content != "half an ans\n\n[interrupted]" {
		t.Errorf("the history ends with %+v", last)
	}
	var done bool
	for _, ev := range seen {
		if m, ok := ev.(event.MessageDone); ok && m.Text == "half an ans" {
			done = true
		}
	}
	if !done {
		t.Error("the partial message was not ended for its readers")
	}
}
