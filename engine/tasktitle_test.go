package engine

import (
	"encoding/json"
	"testing"

	"github.com/seed-e4e525a6/baton/agenttypes"
)

// A task call's title spells its type the way every pane does: the
// registry's display name.
func TestTaskTitleUsesTheDisplayName(t *testing.T) {
	types := agenttypes.NewRegistry(agenttypes.Builtins()...)
	tool := &taskTool{d: &delegator{types: types}}
	for args, want := range map[string]string{
		`{"description":"find auth","subagent_type":"explore"}`:       "task [Explore] find auth",
		`{"description":"do it","subagent_type":"general-purpose"}`:   "task [General-purpose] do it",
		`{"description":"odd one","instructions":"Be brief."}`:        "task [Custom] odd one",
		`{"description":"by display name","subagent_type":"Explore"}`: "task [Explore] by display name",
	} {
		if got := tool.Title(json.RawMessage(args)); got != want {
			t.Errorf("Title(%s) = %q, want %q", args, got, want)
		}
	}
}
