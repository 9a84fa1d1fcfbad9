package engine

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/permission"
)

// servedSession starts a session against an endpoint listing served (none
// when nil), with one agent type naming typeModel.
func servedSession(t *testing.T, served []string, typeModel string, aliases map[string]string) (*Session, *llmtest.Server) {
	t.Helper()
	srv := llmtest.NewServer(t, delegateOnce(`{"description":"d","prompt":"Review it.","subagent_type":"reviewer"}`,
		func(r *llmtest.Request, w *llmtest.Writer) { w.Text("reviewed") }))
	if served != nil {
		srv.ServeModels(served...)
	}
	typ := agenttypes.Type{Name: "reviewer", Description: "reviews", SystemPrompt: "Review.", Tools: []string{"grep"}, Model: typeModel}
	s, err := NewSession(context.Background(), Config{Client: srv.Client(), Model: "main-model", SubagentModel: "sub-model",
		Workspace: t.TempDir(), Mode: permission.Ask, ModelAliases: aliases, RetryDelays: []time.Duration{time.Millisecond},
		Types: agenttypes.NewRegistry(append(agenttypes.Builtins(), typ)...)})
	if err != nil {
		t.Fatalf("NewSession: %v", err)
	}
	t.Cleanup(s.Close)
	return s, srv
}

// TestAgentModelCheckedAgainstServedList: the model an agent file names is
// replaced before the child's first request when the endpoint does not
// serve it, and the card says which and why; a served one is used as is.
func TestAgentModelCheckedAgainstServedList(t *testing.T) {
	openRouter := []string{"main-model", "sub-model", "anthropic/claude-3.5-sonnet", "anthropic/claude-sonnet-4.5"}
	tests := []struct {
		name, typeModel string
		served          []string
		aliases         map[string]string
		want, why       string
	}{
		{"claude alias on a gateway", "sonnet", openRouter, nil, "anthropic/claude-sonnet-4.5", "the endpoint does not serve sonnet"},
		{"the person's alias", "sonnet", openRouter, map[string]string{"sonnet": "anthropic/claude-3.5-sonnet"}, "anthropic/claude-3.5-sonnet", "[models.aliases] maps sonnet"},
		{"nothing matches", "opencode/big-pickle", openRouter, nil, "sub-model", "using the sub-agent model"},
		{"served as written", "anthropic/claude-3.5-sonnet", openRouter, nil, "anthropic/claude-3.5-sonnet", ""},
		{"inherit", agenttypes.InheritModel, openRouter, nil, "sub-model", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, srv := servedSession(t, tt.served, tt.typeModel, tt.aliases)
			var model, why string
			runTurn(t, s, "go", func(r *event.ApprovalRequest) event.Answer {
				if r.Delegation != nil {
					model, why = r.Delegation.Model, r.Delegation.ModelWhy
				}
				return event.Answer{Decision: event.Allow}
			})
			if model != tt.want || !strings.Contains(why, tt.why) || (tt.why == "") != (why == "") {
				t.Errorf("card model %q why %q, want %q with %q", model, why, tt.want, tt.why)
			}
			child := childByPrompt(srv.Requests(), "Review it.")
			if len(child) == 0 {
				t.Fatal("the child never ran")
			}
			for _, r := range child {
				if r.Body.Model != tt.want {
					t.Errorf("a child request went to %q, want every one to %q (no request wasted on a 404)", r.Body.Model, tt.want)
				}
			}
			if got, gotWhy := s.TypeModel(mustType(t, s, "reviewer")); got != tt.want || gotWhy == "" && tt.why != "" {
				t.Errorf("TypeModel = %q, %q", got, gotWhy)
			}
		})
	}
}

// TestAgentModelWithoutList: an endpoint with no model list gets the
// model as written; the request path's own fallback deals with a 404.
func TestAgentModelWithoutList(t *testing.T) {
	s, srv := servedSession(t, nil, "sonnet", nil)
	runTurn(t, s, "go", nil)
	child := childByPrompt(srv.Requests(), "Review it.")
	if len(child) == 0 {
		t.Fatal("the child never ran")
	}
	if child[0].Body.Model != "sonnet" {
		t.Errorf("first child request went to %q, want sonnet as written", child[0].Body.Model)
	}
}

func mustType(t *testing.T, s *Session, name string) agenttypes.Type {
	t.Helper()
	typ, ok := s.cfg.Types.Lookup(name)
	if !ok {
		t.Fatalf("no type %s", name)
	}
	return typ
}

// TestServedModelsAndCheckModel: the /model picker's list and the check
// of a typed name come from the one background fetch of /v1/models.
func TestServedModelsAndCheckModel(t *testing.T) {
	s, _ := servedSession(t, []string{"main-model", "anthropic/claude-sonnet-4.5", "gpt-4.1"}, "", map[string]string{"big": "gpt-4.1"})
	<-s.served.done
	ids, ready := s.ServedModels()
	if !ready || len(ids) != 3 {
		t.Fatalf("ServedModels = %v, %v", ids, ready)
	}
	for name, want := range map[string]string{
		"gpt-4.1": "", "big": "", "sonnet": "did you mean anthropic/claude-sonnet-4.5?",
		"gpt-9": "the endpoint does not serve gpt-9 (it lists 3 models",
	} {
		if got := s.CheckModel(name); want == "" && got != "" || !strings.Contains(got, want) {
			t.Errorf("CheckModel(%q) = %q, want %q", name, got, want)
		}
	}
	none, _ := servedSession(t, nil, "", nil)
	<-none.served.done
	if ids, ready := none.ServedModels(); !ready || ids != nil || none.CheckModel("anything") != "" {
		t.Errorf("without a list: %v %v %q", ids, ready, none.CheckModel("anything"))
	}
}

// With LazyModelList nothing asks for the model list until something
// needs it; the picker's first look then starts the one fetch.
func TestLazyModelListIsFetchedWhenNeeded(t *testing.T) {
	srv := llmtest.NewServer(t, func(r *llmtest.Request, w *llmtest.Writer) { w.Text("hi") })
	srv.ServeModels("main-model", "gpt-4.1")
	s, err := NewSession(context.Background(), Config{Client: srv.Client(), Model: "main-model", Workspace: t.TempDir(), LazyModelList: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	runTurn(t, s, "hello", nil)
	if n := srv.ModelListRequests(); n != 0 {
		t.Fatalf("a turn that needs no list asked for it %d times", n)
	}
	s.ServedModels()
	<-s.ServedModelsLoaded() // what the picker waits on
	if ids, ready := s.ServedModels(); !ready || len(ids) != 2 {
		t.Fatalf("ServedModels after the fetch = %v, %v", ids, ready)
	}
	if n := srv.ModelListRequests(); n != 1 {
		t.Fatalf("the list was asked for %d times, want once", n)
	}
}
