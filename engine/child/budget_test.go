package child_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/permission"
	"github.com/seed-e4e525a6/baton/engine/sessiontest"
)

// budgetCall is a task call asking for budget (a JSON object).
func budgetCall(id, prompt, budget string) llmtest.Call {
	return llmtest.Call{ID: id, Name: "task", Args: fmt.Sprintf(`{"description":"loop","prompt":%q,"subagent_type":"explore","budget":%s}`, prompt, budget)}
}

// loopingChild never stops calling tools; asked for a report without
// tools, it reports. block makes each of its requests wait until the
// request is cancelled instead.
func loopingChild(block bool) llmtest.Responder {
	return func(r *llmtest.Request, w *llmtest.Writer) {
		if len(r.ToolNames()) == 0 {
			w.Text("final report: found the loop in main.go")
			return
		}
		if block {
			w.Chunk(map[string]any{"choices": []any{map[string]any{"index": 0, "delta": map[string]any{"content": "thinking"}}}})
			<-w.Context().Done()
			return
		}
		w.ToolCalls(llmtest.Call{Name: "list_files", Args: `{}`})
	}
}

// delegateWith scripts a main agent that makes call, children answering
// with child, then sums up.
func delegateWith(call llmtest.Call, child llmtest.Responder) llmtest.Responder {
	return func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case sessiontest.IsChild(r):
			child(r, w)
		case len(sessiontest.ToolMessages(r)) == 0:
			w.ToolCalls(call)
		default:
			w.Text("done")
		}
	}
}

// A child that would loop forever ends at each budget kind with that
// budget's status, and its report reaches the parent.
func TestChildEndsAtEachBudget(t *testing.T) {
	t.Parallel() // waits out a real bound; overlaps the others that do
	priced := func(c *engine.Config) {
		c.Catalog = llm.NewCatalog(map[string]llm.ModelInfo{"test-model": {InputPerMillion: 1000, OutputPerMillion: 1000, PriceKnown: true}})
	}
	for _, tc := range []struct {
		name, budget string
		block        bool
		status       event.Status
		reason       string
	}{
		{"tokens", `{"tokens":300}`, false, event.StatusBudgetExceeded, "token budget reached"},
		{"cost", `{"cost_usd":0.3}`, false, event.StatusBudgetExceeded, "cost budget reached"},
		{"steps", `{"steps":3}`, false, event.StatusMaxSteps, "step limit"},
		{"time", `{"time_s":1}`, true, event.StatusTimedOut, "timed out"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, srv := newTestSession(t, delegateWith(budgetCall("a", "look", tc.budget), loopingChild(tc.block)), priced)
			log := sessiontest.RunTurn(t, s, "go", nil)
			fin := sessiontest.Of[event.AgentFinished](log)
			if len(fin) != 1 || fin[0].Status != tc.status {
				t.Fatalf("finished %+v, want status %s", fin, tc.status)
			}
			sessiontest.Contains(t, "reason", fin[0].Reason, tc.reason)
			reqs := srv.Requests()
			result := sessiontest.ToolMessages(reqs[len(reqs)-1])[0]
			sessiontest.Contains(t, "parent's result", result, "final report: found the loop")
			sessiontest.Contains(t, "parent's result", result, "status: "+string(tc.status))
		})
	}
}

// A wound-down child reports in one step without tools and ends stopped;
// the parent reads its report and what the person did.
func TestWindDownReturnsTheChildsReport(t *testing.T) {
	s, srv := newTestSession(t, delegateWith(budgetCall("a", "look", `{}`), loopingChild(true)), nil)
	asked := false
	log := sessiontest.WatchTurn(t, s, "go", func(ev event.Event) {
		if e, ok := ev.(event.ApprovalRequested); ok {
			e.Request.Answer(event.Answer{Decision: event.Allow})
		}
		if d, ok := ev.(event.TextDelta); ok && d.Agent != event.MainAgent && !asked {
			asked = true
			if aborted, err := s.WindDownAgent(d.Agent); err != nil || aborted {
				t.Errorf("WindDownAgent = %v, %v", aborted, err)
			}
		}
	})
	fin := sessiontest.Of[event.AgentFinished](log)
	if len(fin) != 1 || fin[0].Status != event.StatusStopped {
		t.Fatalf("finished %+v, want stopped", fin)
	}
	reqs := srv.Requests()
	result := sessiontest.ToolMessages(reqs[len(reqs)-1])[0]
	sessiontest.Contains(t, "parent's result", result, "final report: found the loop")
	sessiontest.Contains(t, "parent's result", result, "status: stopped")
	sessiontest.Contains(t, "parent's result", result, "[person: wound down the sub-agent after")
}

// A second stop during a wind-down aborts: the child ends at once,
// cancelled, without its report, and the parent is told.
func TestSecondStopAborts(t *testing.T) {
	hold := make(chan struct{})
	child := func(r *llmtest.Request, w *llmtest.Writer) {
		if len(r.ToolNames()) == 0 {
			close(hold) // the report step has begun; it never answers
			<-w.Context().Done()
			return
		}
		loopingChild(true)(r, w)
	}
	s, srv := newTestSession(t, delegateWith(budgetCall("a", "look", `{}`), child), nil)
	var id event.AgentID
	log := sessiontest.WatchTurn(t, s, "go", func(ev event.Event) {
		if e, ok := ev.(event.ApprovalRequested); ok {
			e.Request.Answer(event.Answer{Decision: event.Allow})
		}
		if d, ok := ev.(event.TextDelta); ok && d.Agent != event.MainAgent && id == "" {
			id = d.Agent
			if _, err := s.WindDownAgent(id); err != nil {
				t.Errorf("wind down: %v", err)
			}
			go func() {
				<-hold
				if aborted, err := s.WindDownAgent(id); err != nil || !aborted {
					t.Errorf("second stop = %v, %v", aborted, err)
				}
			}()
		}
	})
	fin := sessiontest.Of[event.AgentFinished](log)
	if len(fin) != 1 || fin[0].Status != event.StatusCancelled {
		t.Fatalf("finished %+v, want cancelled", fin)
	}
	reqs := srv.Requests()
	result := sessiontest.ToolMessages(reqs[len(reqs)-1])[0]
	sessiontest.Contains(t, "parent's result", result, "[person: aborted the sub-agent after")
}

// What the person did on a card reaches the parent in the tool result,
// one "[person: …]" line each, for a delegation as for a tool call.
func TestParentToldWhatThePersonDid(t *testing.T) {
	s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case sessiontest.IsChild(r):
			w.Text("child done")
		case len(sessiontest.ToolMessages(r)) == 0:
			w.ToolCalls(sessiontest.TaskCall("a", "explore", "denied", "job a"), sessiontest.TaskCall("b", "explore", "edited", "job b"),
				llmtest.Call{ID: "w", Name: "write_file", Args: `{"path":"a.txt","content":"x"}`})
		default:
			w.Text("done")
		}
	}, func(c *engine.Config) { c.Mode = permission.Ask })
	sessiontest.RunTurn(t, s, "go", func(req *event.ApprovalRequest) event.Answer {
		if req.Delegation == nil {
			return event.Answer{Decision: event.Deny, Reason: "wrong file"}
		}
		if req.Delegation.Description == "denied" {
			return event.Answer{Decision: event.Deny, Reason: "not now"}
		}
		return event.Answer{Decision: event.Allow, EditedPrompt: "job b, but only in cmd/",
			EditedLimits: &event.Limits{MaxSteps: 4, Timeout: 60e9, Budget: event.Budget{Tokens: 20000}}}
	})
	reqs := srv.Requests()
	results := strings.Join(sessiontest.ToolMessages(reqs[len(reqs)-1]), "\n---\n")
	for _, want := range []string{
		"[person: denied the delegation: not now]",
		`[person: edited the prompt; the sub-agent ran with: "job b, but only in cmd/"]`,
		"[person: changed the budget to 20k tokens · 4 steps · 60s]",
		"[person: denied this write_file call: wrong file]",
	} {
		sessiontest.Contains(t, "parent's results", results, want)
	}
}

// The main agent's turn has a budget too: a turn that would loop forever
// ends at turn_tokens with budget_exceeded, after one last answer
// without tools.
func TestTurnEndsAtItsBudget(t *testing.T) {
	s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		if len(r.ToolNames()) == 0 {
			w.Text("turn report: listed the root twice")
			return
		}
		w.ToolCalls(llmtest.Call{Name: "list_files", Args: `{}`})
	}, func(c *engine.Config) { c.Limits.TurnBudget = event.Budget{Tokens: 300} })
	log := sessiontest.RunTurn(t, s, "go", nil)
	if log.End.Status != event.StatusBudgetExceeded {
		t.Fatalf("turn ended %s, want budget_exceeded", log.End.Status)
	}
	sessiontest.Contains(t, "turn's text", log.End.Text, "turn report: listed the root twice")
	reqs := srv.Requests()
	last := reqs[len(reqs)-1]
	if len(last.ToolNames()) != 0 {
		t.Fatalf("the last request offered tools: %v", last.ToolNames())
	}
	sessiontest.Contains(t, "last request", last.Body.Messages[len(last.Body.Messages)-1].Content, "token budget reached")
}

// A delegation a rule or the mode refused was not the person's doing:
// the parent reads the reason, and no "[person: …]" line.
func TestRuleDenialIsNotThePersons(t *testing.T) {
	s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case len(sessiontest.ToolMessages(r)) == 0:
			w.ToolCalls(sessiontest.TaskCall("a", "explore", "look", "look"))
		default:
			w.Text("done")
		}
	}, func(c *engine.Config) { c.Mode = permission.Headless })
	sessiontest.RunTurn(t, s, "go", nil)
	reqs := srv.Requests()
	result := sessiontest.ToolMessages(reqs[len(reqs)-1])[0]
	sessiontest.Contains(t, "parent's result", result, "a headless run cannot ask")
	if strings.Contains(result, "[person") {
		t.Errorf("a mode's denial told as the person's:\n%s", result)
	}
}
