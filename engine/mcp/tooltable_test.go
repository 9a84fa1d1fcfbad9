package mcp

import (
	"slices"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/mcp/mcptest"
)

// TestManagerToolsAreTheToolTables: besides the servers' own tools
// (mcp__SERVER__TOOL), the manager builds exactly the tool table's MCP
// entries, in its order, each as read-only as the table's kind says; the
// engine's test holds the table to the rest.
func TestManagerToolsAreTheToolTables(t *testing.T) {
	m := startManager(t, Options{}, stdioServer(t, "srv", mcptest.ModeServe, nil))
	waitFor(t, m, "srv", inState(event.MCPConnected))
	kinds := map[string]agenttypes.ToolKind{}
	var table []string
	for _, info := range agenttypes.Tools() {
		if info.MCP {
			table = append(table, info.Name)
			kinds[info.Name] = info.Kind
		}
	}
	var built []string
	for _, tl := range m.Tools() {
		if strings.HasPrefix(tl.Name(), agenttypes.MCPToolPrefix) {
			continue
		}
		built = append(built, tl.Name())
		if kind, ok := kinds[tl.Name()]; ok && tl.ReadOnly() != kind.ReadOnly() {
			t.Errorf("%s: ReadOnly() = %v, but the table's kind says %v", tl.Name(), tl.ReadOnly(), kind.ReadOnly())
		}
	}
	if !slices.Equal(built, table) {
		t.Errorf("the MCP manager builds %v; the tool table's MCP entries (agenttypes/tooltable.go) are %v", built, table)
	}
}
