package engine

import (
	"slices"
	"testing"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

// TestToolTableIsWhatTheEngineBuilds ties agenttypes' tool table to the
// tools: with everything on (delegation, a skill on offer, the network),
// the main agent has exactly the table's tools in the table's order, so a
// tool built without an entry, or an entry with no tool, fails here; and
// each tool's read-only flag agrees with the kind the table gives it. The
// MCP manager's tools are engine/mcp's to check.
func TestToolTableIsWhatTheEngineBuilds(t *testing.T) {
	catalog, _ := personalSkill(t, "style", "description: house style\n", "Use tabs.")
	s, _ := newTestSession(t, func(_ *llmtest.Request, w *llmtest.Writer) { w.Text("ok") }, func(c *Config) {
		c.Skills = catalog
		c.Limits.MaxDepth = 1
	})
	built := s.main
	var table []string
	for _, info := range agenttypes.Tools() {
		if info.MCP {
			continue
		}
		table = append(table, info.Name)
		tool, ok := built.Tool(info.Name)
		if !ok {
			continue // reported below with the whole list
		}
		if want := info.Kind.ReadOnly(); tool.ReadOnly() != want {
			t.Errorf("%s: ReadOnly() = %v, but the table's kind %d says %v", info.Name, tool.ReadOnly(), info.Kind, want)
		}
	}
	if got := built.ToolNames(); !slices.Equal(got, table) {
		t.Errorf("the engine builds\n  %v\nthe tool table (agenttypes/tooltable.go) lists\n  %v", got, table)
	}
}
