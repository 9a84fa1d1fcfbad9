package child

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/agenttypes"
)

// A task call's title spells its type the way every pane does: the
// registry's display name.
func TestTaskTitleUsesTheDisplayName(t *testing.T) {
	types := agenttypes.NewRegistry(agenttypes.Builtins()...)
	tool := &taskTool{m: &Manager{opts: Options{Types: types}}}
	for args, want := range map[string]string{
		`{"description":"find auth","subagent_type":"explore"}`:       "task [Explore] find auth",
		`{"description":"do it","subagent_type":"general-purpose"}`:   "task [General-purpose] do it",
		`{"description":"odd one","instructions":"Be brief."}`:        "task [Custom] odd one",
		`{"description":"by display name","subagent_type":"Explore"}`: "task [Explore] by display name",
		`{"description":"unknown","subagent_type":"nonesuch"}`:        "task [nonesuch] unknown",
		`{"description":`: "task",
	} {
		if got := tool.Title(json.RawMessage(args)); got != want {
			t.Errorf("Title(%s) = %q, want %q", args, got, want)
		}
	}
	if tool.ReadOnly() {
		t.Error("the task tool says it is read-only: delegation would skip its approval")
	}
}

// A task call needs the agent it acts for; run outside an executor it says
// so instead of starting a child nobody waits for.
func TestTaskRunOutsideACallIsAnError(t *testing.T) {
	tool := &taskTool{m: &Manager{opts: Options{Types: agenttypes.NewRegistry()}}}
	_, err := tool.Run(t.Context(), json.RawMessage(`{"description":"d","prompt":"p","subagent_type":"explore"}`))
	if err == nil || !strings.Contains(err.Error(), "tool call of an agent") {
		t.Fatalf("err = %v, want the missing-call error", err)
	}
}
