package child_test

import (
	"testing"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/sessiontest"
)

// An agent file's runner: places its children whatever [subagents]
// runner says; the other types keep the session's runner.
func TestAgentFileRunnerPlacesItsChildren(t *testing.T) {
	own := map[string]string{child.RunnerLocal: child.RunnerProcess, child.RunnerProcess: child.RunnerLocal}[*sessiontest.Runner]
	typ := agenttypes.Type{Name: "placed", DisplayName: "Placed", Description: "d", Tools: agenttypes.ReadOnlyTools, Model: agenttypes.InheritModel,
		Source: "/agents/placed.md", Runner: own}
	s, _ := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case sessiontest.IsChild(r):
			w.Text("looked")
		case len(sessiontest.ToolMessages(r)) == 0:
			w.ToolCalls(sessiontest.TaskCall("a", "placed", "look", "look here"), sessiontest.TaskCall("b", "explore", "look", "look there"))
		default:
			w.Text("done")
		}
	}, withTypes(typ))
	log := sessiontest.RunTurn(t, s, "go", nil)
	got := map[string]string{}
	for _, st := range sessiontest.Of[event.AgentStarted](log) {
		got[st.TypeName] = st.Runner
	}
	for _, f := range sessiontest.Of[event.AgentFinished](log) {
		if f.Status != event.StatusCompleted {
			t.Errorf("%s ended %s: %s", f.Agent, f.Status, f.Reason)
		}
	}
	if got["placed"] != own || got["explore"] != *sessiontest.Runner {
		t.Fatalf("runners %v, want placed on %s and explore on %s", got, own, *sessiontest.Runner)
	}
}
