package child_test

import (
	"strings"
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

// A child whose runner this session cannot offer: one meant for a
// container is refused, saying why, and never runs on this machine
// instead; one meant for kubernetes runs on the session's runner, and a
// notice says so; a runner baton does not have at all is refused by
// name. The main agent reads each refusal as its task call's result.
func TestAChildsRunnerThatIsNotHere(t *testing.T) {
	typ := func(name, runner string) agenttypes.Type {
		return agenttypes.Type{Name: name, DisplayName: name, Description: "d", Tools: agenttypes.ReadOnlyTools, Model: agenttypes.InheritModel,
			Source: "/agents/" + name + ".md", Runner: runner}
	}
	s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case sessiontest.IsChild(r):
			w.Text("looked")
		case len(sessiontest.ToolMessages(r)) == 0:
			w.ToolCalls(sessiontest.TaskCall("a", "boxed", "look", "look in a box"), sessiontest.TaskCall("b", "podded", "look", "look in a pod"),
				sessiontest.TaskCall("c", "elsewhere", "look", "look elsewhere"))
		default:
			w.Text("done")
		}
	}, withTypes(typ("boxed", child.RunnerContainer), typ("podded", child.RunnerKubernetes), typ("elsewhere", "mainframe")))
	log := sessiontest.RunTurn(t, s, "go", nil)
	results := strings.Join(sessiontest.ToolMessages(srv.Requests()[len(srv.Requests())-1]), "\n")
	sessiontest.Contains(t, "the container child's result", results,
		"a boxed sub-agent runs on the container runner, which is not available here ([runner.container] names no image); it does not run on this machine instead")
	sessiontest.Contains(t, "the unknown runner's result", results, `agent type "elsewhere" asks for the runner "mainframe", which baton does not have; use another type`)
	started := sessiontest.Of[event.AgentStarted](log)
	if len(started) != 1 || started[0].TypeName != "podded" || started[0].Runner != *sessiontest.Runner {
		t.Fatalf("started %+v, want only the kubernetes child, on the %s runner", started, *sessiontest.Runner)
	}
	var notices []string
	for _, n := range sessiontest.Of[event.Notice](log) {
		notices = append(notices, n.Text)
	}
	sessiontest.Contains(t, "notices", strings.Join(notices, "\n"),
		"a podded sub-agent runs on the "+*sessiontest.Runner+" runner: the kubernetes runner is not available here ([runner.kubernetes] names no image)")
}
