package rules

import (
	"slices"
	"strings"
	"testing"
)

// TestFromClaudeReadsClaudeCodesRules: a rule a person wrote for Claude
// Code means the same to baton: its tool names map to baton's, its
// newer "Bash(npm run *)" is the prefix form, and its path forms land
// where Claude Code puts them.
func TestFromClaudeReadsClaudeCodesRules(t *testing.T) {
	for in, want := range map[string]string{
		"Bash":                     "run_command",
		" Bash(npm test:*) ":       "run_command(npm test:*)",
		"Bash(npm run *)":          "run_command(npm run:*)",
		"Read(//etc/**)":           "read_file(/etc/**)",
		"Read(~/notes/**)":         "read_file(/home/u/notes/**)",
		"Read(/src/**)":            "read_file(src/**)",
		"Edit(./docs/*.md)":        "edit_file(./docs/*.md)",
		"MultiEdit(x)":             "edit_file(x)",
		"Glob(**/*.go)":            "find_files(**/*.go)",
		"WebFetch(domain:x.com)":   "web_fetch(domain:x.com)",
		"Agent":                    "task",
		"mcp__gh__issue":           "mcp__gh__issue",
		"mcp__gh__*":               "mcp__gh__*",
		"mcp__gh__issue(anything)": "mcp__gh__issue(anything)",
	} {
		got, err := FromClaude(in, "/home/u")
		if err != nil || got != want {
			t.Errorf("FromClaude(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for in, wantErr := range map[string]string{
		"Frobnicate(x)": "no baton tool for Frobnicate",
	} {
		if _, err := FromClaude(in, "/home/u"); err == nil || err.Error() != wantErr {
			t.Errorf("FromClaude(%q): %v, want %q", in, err, wantErr)
		}
	}
	if got, err := FromClaude("Read(~/x)", ""); err == nil {
		t.Errorf("a ~ rule without a home folder: %q, want an error", got)
	}
}

// TestClaudeHomeRuleHoldsForAHomeWithGlobCharacters: deny Read(~/.ssh/**)
// keeps the keys of a person whose home folder's name holds [ ] or *,
// which a glob would read as a pattern.
func TestClaudeHomeRuleHoldsForAHomeWithGlobCharacters(t *testing.T) {
	text, err := FromClaude("Read(~/.ssh/**)", "/home/a[1]*/")
	if err != nil {
		t.Fatal(err)
	}
	var s Set
	s.Add(Deny, mustParse(t, text))
	if v, _ := s.Decide(fileCall("read_file", "/home/a[1]*/.ssh/id_ed25519")); v != Denied {
		t.Errorf("%s: reading the key gave %v, want denied", text, v)
	}
	if v, _ := s.Decide(fileCall("read_file", "/home/a1x/.ssh/id_ed25519")); v == Denied {
		t.Errorf("%s: another home's key is denied too (%v)", text, v)
	}
}

// TestClaudeNamesComeFromTheToolTable: each baton tool Claude Code has
// maps both ways, the current name first; MCP tools are named alike.
func TestClaudeNamesComeFromTheToolTable(t *testing.T) {
	if got := ClaudeNames("run_command"); !slices.Equal(got, []string{"Bash"}) {
		t.Errorf("ClaudeNames(run_command) = %q", got)
	}
	if got := ClaudeNames("edit_file"); !slices.Equal(got, []string{"Edit", "MultiEdit"}) {
		t.Errorf("ClaudeNames(edit_file) = %q", got)
	}
	if got := ClaudeNames("mcp__a__b"); !slices.Equal(got, []string{"mcp__a__b"}) {
		t.Errorf("ClaudeNames(mcp__a__b) = %q", got)
	}
	if got := ClaudeNames("no_such_tool"); got != nil {
		t.Errorf("ClaudeNames(no_such_tool) = %q, want none", got)
	}
	for _, name := range []string{"Bash", "Read", "Edit", "MultiEdit", "Agent", "Task", "mcp__x__y"} {
		tool, ok := ToolOfClaude(name)
		if !ok || !strings.HasPrefix(name, "mcp__") && !slices.Contains(ClaudeNames(tool), name) {
			t.Errorf("ToolOfClaude(%s) = %q, %v, which does not map back", name, tool, ok)
		}
	}
	if tool, ok := ToolOfClaude("Frobnicate"); ok {
		t.Errorf("ToolOfClaude(Frobnicate) = %q", tool)
	}
}
