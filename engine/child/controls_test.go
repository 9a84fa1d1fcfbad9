package child_test

import (
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/permission"
	"github.com/seed-e4e525a6/baton/engine/sessiontest"
)

// wantErr fails the test unless err says want.
func wantErr(t *testing.T, what string, err error, want string) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("%s: error %v, want one saying %q", what, err, want)
	}
}

// A finished child cannot be stopped, steered or resumed; what ended
// without running is not resumed or continued but retried; and the
// refusals name the command that does what the person wants.
func TestControlsOfAnEndedChildSayWhatToDoInstead(t *testing.T) {
	s, _ := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case sessiontest.IsChild(r):
			w.Text("auth is in auth.go")
		case len(sessiontest.ToolMessages(r)) == 0 && sessiontest.LastIsUser(r, "find auth"):
			w.ToolCalls(sessiontest.TaskCall("t1", "explore", "find auth code", "Find the auth code."),
				sessiontest.TaskCall("t2", "explore", "find secrets", "Find the secrets."))
		default:
			w.Text("done")
		}
	}, func(c *engine.Config) { c.Mode = permission.Ask })
	log := sessiontest.RunTurn(t, s, "find auth", func(req *event.ApprovalRequest) event.Answer {
		if req.Delegation != nil && req.Delegation.Prompt == "Find the secrets." {
			return event.Answer{Decision: event.Deny, Reason: "not that"}
		}
		return event.Answer{Decision: event.Allow}
	})
	ended := map[event.AgentID]event.Status{}
	for _, f := range sessiontest.Of[event.AgentFinished](log) {
		ended[f.Agent] = f.Status
	}
	if ended["explore-1"] != event.StatusCompleted || ended["explore-2"] != event.StatusDenied {
		t.Fatalf("children ended %v, want explore-1 completed and explore-2 denied", ended)
	}
	wantErr(t, "resume a completed child", s.ResumeAgent("#1"), "resume: #1 explore-1 completed its task; /subagents send 1 asks it more")
	wantErr(t, "resume a denied child", s.ResumeAgent("explore-2"), "resume: #2 explore-2 never ran (denied); /subagents retry 2 starts it")
	wantErr(t, "continue a denied child", s.ContinueAgent("explore-2", "more"), "never ran (denied), so it has nothing to continue")
	wantErr(t, "stop a finished child", s.StopAgent("explore-1"), `no running sub-agent "explore-1"`)
	wantErr(t, "send to a finished child", s.SendToAgent("explore-1", "hi"), `no running sub-agent "explore-1"`)
	wantErr(t, "background a child it does not know", s.Background("nobody-1"), `no sub-agent "nobody-1"`)
	if err := s.StopAgent("all"); err != nil {
		t.Fatalf("stopping all when none runs: %v", err)
	}
}

// While its card waits, a child has not started: a message sent to it
// is held and reaches it with its task, it cannot be resumed, retried
// or continued (it still runs), and winding it down aborts it at once
// without a request to the model.
func TestControlsOfAChildAwaitingApproval(t *testing.T) {
	s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case sessiontest.IsChild(r):
			w.Text("auth is in auth.go")
		case len(sessiontest.ToolMessages(r)) == 0:
			w.ToolCalls(sessiontest.TaskCall("t1", "explore", "find auth code", "Find the auth code."),
				sessiontest.TaskCall("t2", "explore", "find secrets", "Find the secrets."))
		default:
			w.Text("done")
		}
	}, func(c *engine.Config) { c.Mode = permission.Ask })
	log := sessiontest.RunTurn(t, s, "find auth", func(req *event.ApprovalRequest) event.Answer {
		id := event.AgentID("explore-1")
		if req.Delegation.Prompt == "Find the secrets." {
			id = "explore-2"
			aborted, err := s.WindDownAgent(id)
			if err != nil || !aborted {
				t.Errorf("winding down a child not started: aborted %v, %v", aborted, err)
			}
			return event.Answer{Decision: event.Allow}
		}
		if err := s.SendToAgent(id, "ALSO-CHECK-EXPIRY"); err != nil {
			t.Errorf("a message to a child awaiting approval: %v", err)
		}
		wantErr(t, "resume", s.ResumeAgent(id), "resume: #1 explore-1 is still running")
		wantErr(t, "retry", s.RetryAgent(id), "retry: #1 explore-1 is still running")
		wantErr(t, "continue", s.ContinueAgent(id, "more"), "is still running; task_wait waits for it")
		return event.Answer{Decision: event.Allow}
	})
	ended := map[event.AgentID]event.Status{}
	for _, f := range sessiontest.Of[event.AgentFinished](log) {
		ended[f.Agent] = f.Status
	}
	if ended["explore-1"] != event.StatusCompleted || ended["explore-2"] != event.StatusCancelled {
		t.Fatalf("children ended %v, want explore-1 completed and explore-2 cancelled", ended)
	}
	first := sessiontest.ChildByPrompt(srv.Requests(), "Find the auth code.")
	if len(first) != 1 || !sessiontest.HasUser(first[0], "ALSO-CHECK-EXPIRY") {
		t.Fatalf("the held message did not reach the child's first request: %d requests", len(first))
	}
	if n := len(sessiontest.ChildByPrompt(srv.Requests(), "Find the secrets.")); n != 0 {
		t.Fatalf("the child wound down before it started asked the model %d times", n)
	}
}

// A temporary agent (a task call with instructions, no type) is not
// retried by the person: its instructions are the main agent's to give
// again. A follow-up after --continue of a child whose type is gone is
// refused, naming the type.
func TestControlsRefuseWhatCannotStartAgain(t *testing.T) {
	typ := agenttypes.Type{Name: "probe", DisplayName: "Probe", Description: "p", Tools: agenttypes.ReadOnlyTools, Model: agenttypes.InheritModel}
	script := func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case sessiontest.IsChild(r):
			w.Text("looked")
		case sessiontest.LastIsUser(r, "go"):
			w.ToolCalls(llmtest.Call{ID: "t1", Name: child.TaskToolName, Args: `{"description":"temp","prompt":"Look.","instructions":"You look at things."}`},
				sessiontest.TaskCall("t2", "probe", "probe", "Probe."))
		default:
			w.Text("done")
		}
	}
	_, workspace, dir := sessiontest.NewRecorded(t, nil)
	s, _ := newTestSession(t, script, func(c *engine.Config) { recordTo(workspace, dir)(c); withTypes(typ)(c) })
	ids := map[string]event.AgentID{}
	for _, f := range sessiontest.Of[event.AgentFinished](sessiontest.RunTurn(t, s, "go", nil)) {
		ids[f.Description] = f.Agent
	}
	if len(ids) != 2 {
		t.Fatalf("children %v", ids)
	}
	wantErr(t, "retry a temporary agent", s.RetryAgent(ids["temp"]),
		"was a temporary agent, whose instructions are the main agent's to give again; ask it")
	s.Close()

	resumed, _ := newTestSession(t, script, recordTo(workspace, dir))
	wantErr(t, "continue a child whose type is gone", resumed.ContinueAgent(ids["probe"], "more"), `: unknown subagent_type "probe"; valid types are: `)
}
