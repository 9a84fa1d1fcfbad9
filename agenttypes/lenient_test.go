package agenttypes

import (
	"slices"
	"testing"
)

// TestLenientLongDescription reads a description written over unindented
// lines with "user:" and "Context:" in its examples, as Anthropic's own
// plugin agents do: it runs to the next field, and a later bad field
// still warns on its own line.
func TestLenientLongDescription(t *testing.T) {
	data := "---\nname: a\ndescription: Use it after edits.\\n\\nExamples:\n<example>\nContext: a fix\n\n" +
		"user: \"fix it\"\nassistant: \"done\"\n</example>\nmodel: opus\nsteps: many\ncolor: red\n---\nbody\n"
	got, warns, err := ParseFile("a.md", []byte(data))
	if err != nil {
		t.Fatalf("ParseFile: %v", err)
	}
	want := "Use it after edits.\\n\\nExamples:\n<example>\nContext: a fix\n\nuser: \"fix it\"\nassistant: \"done\"\n</example>"
	if got.Description != want || got.Model != "opus" || got.Color != "red" || got.Extra != nil {
		t.Errorf("description %q model %q color %q extra %v, want %q opus red", got.Description, got.Model, got.Color, got.Extra, want)
	}
	checkWarnings(t, "a.md", warns, []string{"11: steps must be a whole number"})
}

// TestToolsEveryTool reads Claude Code's tools: ["*"], every tool, as a
// file that names no tools; a tool the star leaves out may still be named.
func TestToolsEveryTool(t *testing.T) {
	for fields, want := range map[string][]string{
		"tools: [\"*\"]\n":         BaseTools,
		"tools: \"*\"\n":           BaseTools,
		"tools: \"*, WebFetch\"\n": append(slices.Clone(BaseTools), "web_fetch"),
	} {
		got, warns, err := ParseFile("a.md", agentDoc(fields))
		if err != nil || len(warns) != 0 || !slices.Equal(got.Tools, want) || len(got.DroppedTools) != 0 {
			t.Errorf("%q: tools %q dropped %q warnings %v err %v, want %q", fields, got.Tools, got.DroppedTools, warns, err, want)
		}
	}
}

// TestReasoningEffort reads OpenCode's reasoningEffort, a provider option
// it passes through, as the effort to ask for.
func TestReasoningEffort(t *testing.T) {
	got, warns, err := ParseFile("a.md", agentDoc("reasoningEffort: low\n"))
	if err != nil || len(warns) != 0 || got.Effort != "low" || got.Extra != nil {
		t.Errorf("effort %q extra %v warnings %v err %v, want low", got.Effort, got.Extra, warns, err)
	}
}
