package engine

import (
	"bytes"
	"slices"
	"testing"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/permission"
)

// TestAgentFileRunsWithoutDroppedTools runs a type whose file named tools
// baton lacks, with OpenCode sampling settings: the child starts with the
// tools it has, the card lists the dropped ones, and its requests carry
// the file's temperature and top_p (a zero included).
func TestAgentFileRunsWithoutDroppedTools(t *testing.T) {
	zero, low := 0.0, 0.2
	typ := agenttypes.Type{Name: "docs", Description: "reads docs", SystemPrompt: "Read docs.", Tools: []string{"read_file", "grep"},
		DroppedTools: []string{"WebSearch", "mcp__context7__docs"}, Model: agenttypes.InheritModel, Temperature: &low, TopP: &zero}
	s, srv := newTestSession(t, delegateOnce(`{"description":"d","prompt":"Find docs.","subagent_type":"docs"}`,
		func(r *llmtest.Request, w *llmtest.Writer) { w.Text("found") }),
		func(c *Config) { withTypes(typ)(c); c.Mode = permission.Ask })
	var dropped []string
	runTurn(t, s, "go", func(r *event.ApprovalRequest) event.Answer {
		if r.Delegation != nil {
			dropped = r.Delegation.DroppedTools
		}
		return event.Answer{Decision: event.Allow}
	})
	if !slices.Equal(dropped, typ.DroppedTools) {
		t.Errorf("card dropped %q, want %q", dropped, typ.DroppedTools)
	}
	child := childByPrompt(srv.Requests(), "Find docs.")
	if len(child) == 0 {
		t.Fatal("the child never ran")
	}
	if got := child[0].ToolNames(); slices.Contains(got, "WebSearch") || !slices.Contains(got, "grep") {
		t.Errorf("child tools %q", got)
	}
	if child[0].Body.Temperature != 0.2 || !bytes.Contains(child[0].Raw, []byte(`"top_p":1e-45`)) {
		t.Errorf("temperature %v, body %s: want 0.2 and top_p sent as zero", child[0].Body.Temperature, child[0].Raw)
	}
	main := srv.Requests()[0]
	if bytes.Contains(main.Raw, []byte(`"temperature"`)) || bytes.Contains(main.Raw, []byte(`"top_p"`)) {
		t.Errorf("the main agent sent sampling settings: %s", main.Raw)
	}
}
