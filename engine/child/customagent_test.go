package child_test

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/permission"
	"github.com/seed-e4e525a6/baton/engine/sessiontest"
)

func TestCustomAgentRequestCarriesItsPromptToolsAndModel(t *testing.T) {
	reviewer := agenttypes.Type{Name: "sql-reviewer", DisplayName: "SQL Reviewer", Description: "reviews SQL",
		SystemPrompt: "You review SQL migrations for locking problems.", Tools: []string{"read_file", "grep"}, Model: "cheap-model"}
	s, srv := newTestSession(t, sessiontest.DelegateOnce(`{"description":"check sql","prompt":"Check migrations.","subagent_type":"SQL_Reviewer"}`,
		func(r *llmtest.Request, w *llmtest.Writer) { w.Text("no locks") }), withTypes(reviewer))
	sessiontest.RunTurn(t, s, "go", nil)
	child := sessiontest.ChildByPrompt(srv.Requests(), "Check migrations.")
	if len(child) != 1 {
		t.Fatalf("%d child requests", len(child))
	}
	sessiontest.Contains(t, "system prompt", child[0].System(), "You review SQL migrations for locking problems.")
	if got := child[0].ToolNames(); !slices.Equal(got, []string{"read_file", "grep"}) && !slices.Equal(got, []string{"grep", "read_file"}) {
		t.Fatalf("tools %v", got)
	}
	if child[0].Body.Model != "cheap-model" {
		t.Fatalf("model %q", child[0].Body.Model)
	}
}

func TestSubagentModelResolution(t *testing.T) {
	cases := []struct {
		name, typeModel, callModel, subagentModel, want string
	}{
		{"call wins", "type-model", "call-model", "sub-model", "call-model"},
		{"type next", "type-model", "", "sub-model", "type-model"},
		{"subagent_model next", "inherit", "", "sub-model", "sub-model"},
		{"main model last", "inherit", "", "", "test-model"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			typ := agenttypes.Type{Name: "probe", Description: "p", Tools: []string{"grep"}, Model: tc.typeModel}
			args := `{"description":"d","prompt":"Probe.","subagent_type":"probe","model":"` + tc.callModel + `"}`
			s, srv := newTestSession(t, sessiontest.DelegateOnce(args, func(r *llmtest.Request, w *llmtest.Writer) { w.Text("ok") }),
				func(c *engine.Config) { withTypes(typ)(c); c.SubagentModel = tc.subagentModel })
			sessiontest.RunTurn(t, s, "go", nil)
			if got := sessiontest.ChildByPrompt(srv.Requests(), "Probe.")[0].Body.Model; got != tc.want {
				t.Fatalf("model %q, want %q", got, tc.want)
			}
		})
	}
}

func TestUnknownModelFallsBackOnce(t *testing.T) {
	s, srv := newTestSession(t, sessiontest.DelegateOnce(`{"description":"d","prompt":"Fallback.","subagent_type":"explore","model":"no-such-model"}`,
		func(r *llmtest.Request, w *llmtest.Writer) {
			if r.Body.Model == "no-such-model" {
				w.Error(404, `{"error":{"message":"The model no-such-model does not exist","type":"invalid_request_error","code":"model_not_found"}}`)
				return
			}
			w.Text("done on the default")
		}), nil)
	log := sessiontest.RunTurn(t, s, "go", nil)
	finished := sessiontest.Of[event.AgentFinished](log)
	if len(finished) != 1 || finished[0].Status != event.StatusCompleted {
		t.Fatalf("finished %+v", finished)
	}
	sessiontest.Contains(t, "result", finished[0].Result, "fell back to test-model")
	models := []string{}
	for _, r := range sessiontest.ChildByPrompt(srv.Requests(), "Fallback.") {
		models = append(models, r.Body.Model)
	}
	if !slices.Equal(models, []string{"no-such-model", "test-model"}) {
		t.Fatalf("child requests used %v", models)
	}
}

func TestVisionAgentOnTextOnlyModelIsRefused(t *testing.T) {
	shots := agenttypes.Type{Name: "screenshots", Description: "reads screenshots", Tools: []string{"read_file"},
		Capabilities: []string{"vision"}, Model: "text-only"}
	catalog := llm.NewCatalog(map[string]llm.ModelInfo{"text-only": {ID: "text-only", ContextWindow: 8000}})
	s, srv := newTestSession(t, sessiontest.DelegateOnce(`{"description":"d","prompt":"Look.","subagent_type":"screenshots"}`,
		func(r *llmtest.Request, w *llmtest.Writer) { t.Error("a refused child must not run") }),
		func(c *engine.Config) { withTypes(shots)(c); c.Catalog = catalog })
	sessiontest.RunTurn(t, s, "go", nil)
	result := sessiontest.ToolMessages(srv.Requests()[1])[0]
	sessiontest.Contains(t, "refusal", result, "needs vision")
	sessiontest.Contains(t, "refusal", result, "text-only")
	sessiontest.Contains(t, "refusal", result, "temporary agent")
}

func TestChildCostMatchesCatalogue(t *testing.T) {
	s, _ := newTestSession(t, sessiontest.DelegateOnce(`{"description":"d","prompt":"Price me.","subagent_type":"explore","model":"gpt-4.1"}`,
		func(r *llmtest.Request, w *llmtest.Writer) { w.Text("priced") }), nil)
	log := sessiontest.RunTurn(t, s, "go", nil)
	info, ok := llm.NewCatalog(nil).Lookup("gpt-4.1")
	if !ok || !info.PriceKnown {
		t.Fatal("gpt-4.1 is not priced in the catalogue")
	}
	want := (llmtest.PromptTokens*info.InputPerMillion + llmtest.CompletionTokens*info.OutputPerMillion) / 1e6
	finished := sessiontest.Of[event.AgentFinished](log)[0]
	if got := finished.Stats.Usage.Cost; !finished.Stats.Usage.CostKnown || math.Abs(got-want) > 1e-12 {
		t.Fatalf("child cost %v (known %v), want %v", got, finished.Stats.Usage.CostKnown, want)
	}
}

func TestConfiguredStepLimitsApplyToBuiltins(t *testing.T) {
	s, _ := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case sessiontest.IsChild(r) && len(r.Body.Tools) == 0:
			w.Text("summary")
		case sessiontest.IsChild(r):
			w.ToolCalls(llmtest.Call{Name: "list_files", Args: `{}`})
		case len(sessiontest.ToolMessages(r)) == 0:
			w.ToolCalls(sessiontest.TaskCall("a", "explore", "read", "Read."), sessiontest.TaskCall("b", "general-purpose", "write", "Write."),
				sessiontest.TaskCall("c", "test", "run", "Run."))
		default:
			w.Text("done")
		}
	}, func(c *engine.Config) { c.Limits.ChildStepsReadOnly, c.Limits.ChildStepsWrite = 2, 3 })
	log := sessiontest.RunTurn(t, s, "go", nil)
	steps := map[string]int{}
	for _, st := range sessiontest.Of[event.AgentStarted](log) {
		steps[st.Description] = st.MaxSteps
	}
	// The README: child_steps_write bounds "a child that can write or
	// run commands", so the built-in test type takes it.
	if steps["read"] != 2 || steps["write"] != 3 || steps["run"] != 3 {
		t.Fatalf("step limits %v, want read 2, write 3 and run (the test type) 3", steps)
	}
}

// An agent file's own limits and effort shape its child (a task call's
// effort overrides the file's), as the card shows before it runs and the
// model request carries; a type that cannot run as asked (a rule baton
// cannot read, reasoning on a model that cannot reason, a name nobody
// defined) is refused with what to do instead, and never runs.
func TestAgentTypeSettingsShapeTheChild(t *testing.T) {
	careful := agenttypes.Type{Name: "careful", Description: "c", Tools: []string{"read_file"}, Model: "thinker", Source: "/agents/careful.md",
		Timeout: 90 * time.Second, BudgetTokens: 5000, BudgetCostUSD: 0.5, Effort: "low"}
	ruled := agenttypes.Type{Name: "ruled", Description: "r", Tools: []string{"read_file"}, Model: agenttypes.InheritModel,
		Permissions: agenttypes.Rules{Deny: []string{"read_file("}}}
	deep := agenttypes.Type{Name: "deep", Description: "d", Tools: []string{"read_file"}, Model: "plain", Capabilities: []string{"reasoning"}}
	catalog := llm.NewCatalog(map[string]llm.ModelInfo{"thinker": {ID: "thinker", ContextWindow: 8000, CanReason: true},
		"plain": {ID: "plain", ContextWindow: 8000}})
	s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case sessiontest.IsChild(r):
			w.Text("careful answer")
		case len(sessiontest.ToolMessages(r)) == 0:
			w.ToolCalls(llmtest.Call{ID: "a", Name: child.TaskToolName, Args: `{"description":"care","prompt":"Be careful.","subagent_type":"careful","effort":"high"}`},
				sessiontest.TaskCall("b", "ruled", "rules", "Follow rules."), sessiontest.TaskCall("c", "deep", "think", "Think deep."),
				sessiontest.TaskCall("d", "nonesuch", "who", "Who?"))
		default:
			w.Text("done")
		}
	}, func(c *engine.Config) {
		withTypes(careful, ruled, deep)(c)
		c.Catalog, c.Mode = catalog, permission.Ask
	})
	var card *event.DelegationPreview
	sessiontest.RunTurn(t, s, "go", func(req *event.ApprovalRequest) event.Answer {
		card = req.Delegation
		return event.Answer{Decision: event.Allow}
	})
	if card == nil || card.Prompt != "Be careful." || card.Timeout != 90*time.Second || card.Budget != (event.Budget{Tokens: 5000, CostUSD: 0.5}) {
		t.Fatalf("the careful child's card %+v", card)
	}
	reqs := sessiontest.ChildByPrompt(srv.Requests(), "Be careful.")
	if len(reqs) != 1 {
		t.Fatalf("the careful child asked the model %d times", len(reqs))
	}
	if body := reqs[0].Body; body.ReasoningEffort != "high" || body.Model != "thinker" {
		t.Fatalf("the careful child asked %s with effort %q", body.Model, body.ReasoningEffort)
	}
	for _, prompt := range []string{"Follow rules.", "Think deep.", "Who?"} {
		if n := len(sessiontest.ChildByPrompt(srv.Requests(), prompt)); n != 0 {
			t.Errorf("the refused child %q asked the model %d times", prompt, n)
		}
	}
	results := strings.Join(sessiontest.ToolMessages(srv.Requests()[len(srv.Requests())-1]), "\n")
	for _, want := range []string{`agent type "ruled" has a permission rule baton cannot read`,
		`agent type "deep" needs reasoning, but model plain cannot reason`,
		`unknown subagent_type "nonesuch"; valid types are: `} {
		sessiontest.Contains(t, "the refusals", results, want)
	}
}
