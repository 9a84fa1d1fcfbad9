package demo_test

import (
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/permission"
)

func TestDemoDelegatesThreeChildrenThatReadTheWorkspace(t *testing.T) {
	s := newSession(t, startDemo(t), nil)
	tr := runTurn(t, s, "what is this project?")

	if tr.end.Status != event.StatusCompleted {
		t.Fatalf("turn status = %s, want completed", tr.end.Status)
	}
	started := map[event.AgentID]bool{}
	for _, e := range eventsOf[event.AgentStarted](tr) {
		started[e.Agent] = true
	}
	if len(started) != 3 {
		t.Fatalf("children started = %d, want 3", len(started))
	}
	for _, e := range eventsOf[event.AgentFinished](tr) {
		if e.Status != event.StatusCompleted || !started[e.Agent] {
			t.Errorf("child %s ended %s (%s)", e.Agent, e.Status, e.Reason)
		}
	}
	var outputs strings.Builder
	tools := childTools(tr)
	for id := range started {
		if len(tools[id]) == 0 {
			t.Errorf("child %s used no tools", id)
		}
		for _, e := range tools[id] {
			if e.IsError {
				t.Errorf("child %s: %s failed: %s", id, e.Name, e.Output)
			}
			outputs.WriteString(e.Output + "\n")
		}
	}
	mustContain(t, "the children's tool outputs", outputs.String(), "cmd/app/main.go", "README.md", "go.mod", readmeTitle, "FIXME")
	mustContain(t, "the summary", tr.end.Text,
		"what is this project?", "cmd/app/main.go", readmeTitle, "a Go module", "internal/greet/hi.go",
		"OPENAI_API_KEY", "make run")
}

func TestDemoAnswersEveryTurn(t *testing.T) {
	s := newSession(t, startDemo(t), nil)
	runTurn(t, s, "first look")
	tr := runTurn(t, s, "and again")
	if got := len(eventsOf[event.AgentStarted](tr)); got != 3 {
		t.Fatalf("second turn started %d children, want 3", got)
	}
	mustContain(t, "the second summary", tr.end.Text, "and again", "cmd/app/main.go")
}

func TestDemoHeadlessDenialIsAcknowledged(t *testing.T) {
	s := newSession(t, startDemo(t), func(c *engine.Config) { c.Mode = permission.Headless })
	tr := runTurn(t, s, "map it")

	if got := len(eventsOf[event.AgentStarted](tr)); got != 0 {
		t.Errorf("%d children started, want none", got)
	}
	finished := eventsOf[event.AgentFinished](tr)
	if len(finished) != 3 {
		t.Fatalf("children finished = %d, want 3", len(finished))
	}
	for _, e := range finished {
		if e.Status != event.StatusDenied {
			t.Errorf("child %s ended %s, want denied", e.Agent, e.Status)
		}
	}
	mustContain(t, "the summary", tr.end.Text, "— denied", "--allow task", "None of the sub-agents was allowed to run", "OPENAI_API_KEY")
}

func TestDemoUsesTemporaryAgentsWithoutItsTypes(t *testing.T) {
	plan, _ := agenttypes.NewRegistry(agenttypes.Builtins()...).Lookup("plan")
	s := newSession(t, startDemo(t), func(c *engine.Config) { c.Types = agenttypes.NewRegistry(plan) })
	tr := runTurn(t, s, "look around")

	started := eventsOf[event.AgentStarted](tr)
	if len(started) != 3 {
		t.Fatalf("children started = %d, want 3", len(started))
	}
	for _, e := range started {
		if e.AgentType != "Custom" {
			t.Errorf("child %s is %q, want a temporary Custom agent", e.Agent, e.AgentType)
		}
	}
	mustContain(t, "the summary", tr.end.Text, "[custom] map the project layout", "cmd/app/main.go")
}

func TestDemoChildrenCallOnlyOfferedTools(t *testing.T) {
	s := newSession(t, startDemo(t), func(c *engine.Config) { c.SubagentDeny = []string{"grep", "find_files"} })
	tr := runTurn(t, s, "look around")

	for id, calls := range childTools(tr) {
		for _, e := range calls {
			if e.IsError || e.Name == "grep" || e.Name == "find_files" {
				t.Errorf("child %s called %s (error %v): %s", id, e.Name, e.IsError, e.Output)
			}
		}
	}
	for _, e := range eventsOf[event.AgentFinished](tr) {
		if e.Status != event.StatusCompleted {
			t.Errorf("child %s ended %s (%s)", e.Agent, e.Status, e.Reason)
		}
	}
	mustContain(t, "the summary", tr.end.Text, "a Go module")
}

func TestDemoChildReportsAtItsStepLimit(t *testing.T) {
	s := newSession(t, startDemo(t), func(c *engine.Config) { c.Limits.ChildStepsReadOnly = 1 })
	tr := runTurn(t, s, "look around")

	finished := eventsOf[event.AgentFinished](tr)
	if len(finished) != 3 {
		t.Fatalf("children finished = %d, want 3", len(finished))
	}
	for _, e := range finished {
		if e.Status != event.StatusMaxSteps || !strings.Contains(e.Text, "with 1 tool call:") {
			t.Errorf("child %s ended %s with %q, want max_steps and a report of its one call", e.Agent, e.Status, e.Text)
		}
	}
	mustContain(t, "the summary", tr.end.Text, "— max_steps: step limit reached", "go.mod")
}
