package agenttypes

import (
	"slices"
	"strings"
	"testing"
)

func TestBuiltins(t *testing.T) {
	withCommands := []string{"read_file", "list_files", "find_files", "grep", "run_command"}
	want := []struct {
		name, display string
		tools         []string
		steps         int
		promptSays    []string
	}{
		{"explore", "Explore", ReadOnlyTools, 15, []string{"path:line", "read-only"}},
		{"plan", "Plan", ReadOnlyTools, 15, []string{"numbered list", "Change nothing"}},
		{"review", "Review", ReadOnlyTools, 15, []string{"bugs first", "severity", "path:line"}},
		{"test", "Test", withCommands, 30, []string{"PASS or FAIL", "key lines of output"}},
		{"general-purpose", "General-purpose", BaseTools, 30, []string{"end to end", "what changed"}},
	}
	got := Builtins()
	if len(got) != len(want) {
		t.Fatalf("Builtins() has %d types, want %d", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.Name != w.name || g.DisplayName != w.display {
			t.Errorf("type %d = %q (%q), want %q (%q)", i, g.Name, g.DisplayName, w.name, w.display)
		}
		if !slices.Equal(g.Tools, w.tools) {
			t.Errorf("%s tools = %q, want %q", w.name, g.Tools, w.tools)
		}
		if g.MaxSteps != w.steps || g.Timeout != 0 || g.Model != InheritModel || g.Source != BuiltinSource {
			t.Errorf("%s limits = %d steps, %v, model %q, source %q", w.name, g.MaxSteps, g.Timeout, g.Model, g.Source)
		}
		if g.Description == "" || strings.Contains(g.Description, "\n") {
			t.Errorf("%s description %q is not one line", w.name, g.Description)
		}
		for _, s := range append([]string{"sub-agent", "no memory of the conversation", "final answer"}, w.promptSays...) {
			if !strings.Contains(strings.ToLower(g.SystemPrompt), strings.ToLower(s)) {
				t.Errorf("%s prompt does not say %q", w.name, s)
			}
		}
		if slices.Contains(g.Tools, TaskTool) {
			t.Errorf("%s may delegate", w.name)
		}
	}
}

func TestBuiltinsAreFresh(t *testing.T) {
	first := Builtins()
	first[0].Tools[0] = "changed"
	if got := Builtins()[0].Tools[0]; got != "read_file" {
		t.Errorf("changing one result reached the next: %q", got)
	}
	if ReadOnlyTools[0] != "read_file" {
		t.Errorf("changing a result reached ReadOnlyTools: %q", ReadOnlyTools)
	}
}
