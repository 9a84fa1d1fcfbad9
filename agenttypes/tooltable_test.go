package agenttypes

import (
	"slices"
	"strings"
	"testing"
)

// TestToolTableIsConsistent: names are unique, another agent's name for
// a tool leads to one tool only, and the lists derived from the table
// hold what their names say.
func TestToolTableIsConsistent(t *testing.T) {
	owner := map[string]string{}
	for _, info := range Tools() {
		for _, name := range slices.Concat([]string{info.Name}, info.Claude, info.OpenCode) {
			lower := strings.ToLower(name)
			if prev, taken := owner[lower]; taken && prev != info.Name {
				t.Errorf("%q names both %s and %s", name, prev, info.Name)
			}
			owner[lower] = info.Name
		}
		if info.Offer == ByEngine && len(info.OpenCodePermissions) > 0 {
			t.Errorf("%s: no agent file grants it, so no OpenCode permission may govern it", info.Name)
		}
	}
	for _, name := range ReadOnlyTools {
		if !slices.Contains(BaseTools, name) {
			t.Errorf("read-only %s is not a default tool", name)
		}
	}
	if slices.Contains(AllTools, TaskTool) || slices.ContainsFunc(AllTools, func(n string) bool { return slices.Contains(ConversationTools, n) && n != "todo_write" }) {
		t.Errorf("AllTools %v holds a tool only the engine gives", AllTools)
	}
	for alias, tool := range toolAliases {
		if !slices.Contains(AllTools, tool) {
			t.Errorf("alias %q leads to %s, which no agent file may name", alias, tool)
		}
	}
	if got := permissionTools["edit"]; !slices.Equal(got, []string{"edit_file", "write_file"}) {
		t.Errorf("OpenCode's edit governs %v; want its own edit_file first, then write_file", got)
	}
}

// TestToolsIsACopy: a caller changing the table it was given changes
// nothing for the next one.
func TestToolsIsACopy(t *testing.T) {
	tools := Tools()
	tools[0].Name, tools[0].Claude[0] = "changed", "changed"
	if again := Tools(); again[0].Name != "read_file" || again[0].Claude[0] != "Read" {
		t.Errorf("Tools() shares its table: %+v", again[0])
	}
}
