package repofile

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestCheckNestingPassesRealFiles keeps the files people write readable:
// strings and comments holding brackets, dotted and quoted keys, floats,
// multi-line strings, JSONC comments, YAML block scalars and plain
// scalars with brackets in them.
func TestCheckNestingPassesRealFiles(t *testing.T) {
	files := []struct {
		name   string
		syntax Syntax
		text   string
	}{
		{"config.toml", TOML, `model = "gpt-4.1"   # [[[[ a comment
[limits]
tool_output_chars = 60000
[models."qwen2.5-coder:7b"]
input_per_million = 0.5
[mcp.servers.docs]
command = "npx"
args = ["-y", "@modelcontextprotocol/server-filesystem", "[{\"x\""]
env = { A = "1", B = { C = [1.5, 2.5, [3.0]] } }
prompt = """
[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[
"""
lit = '''{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{'''
path = 'C:\[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[['
[[permissions.ask]]
a.b.c = 1
`},
		{"settings.json", JSON, `{"permissions": {"allow": ["Bash(npm test:*)", "Read(./[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[)"]},
 "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo \"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\""}]}]}}`},
		{"opencode.jsonc", JSON, `{
  // [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[ a note
  /* {{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{
  */
  "mcp": {"x": {"type": "local", "command": ["a", "b"], "environment": {"K": "v"}}}
}`},
		{"agent.md", YAML, `name: reviewer
description: Use it's [ for reviews, {braces} too: [x
tools: [read_file, grep, {a: [b, c]}]
model: "gpt-4.1" # [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[
prompt: |
  [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[
        deeper text
                even deeper
                        and deeper
permission:
  edit: allow
  bash:
    "git push": ask
    - item
  list:
    - - a
      - b
`},
	}
	for _, f := range files {
		if err := CheckNesting(f.name, []byte(f.text), f.syntax); err != nil {
			t.Errorf("%s: %v", f.name, err)
		}
	}
}

// TestCheckNestingRefusesDeepFiles is the attack: a file nested one level
// past the bound in each way its language allows is refused before any
// parser reads it, and one at the bound is not.
func TestCheckNestingRefusesDeepFiles(t *testing.T) {
	deep := func(open, inner, close string, n int) string {
		return strings.Repeat(open, n) + inner + strings.Repeat(close, n)
	}
	dotted := func(n int) string { return strings.Repeat("a.", n-1) + "a" }
	var indented strings.Builder
	for i := range MaxNesting + 1 {
		indented.WriteString(strings.Repeat("  ", i) + "a:\n")
	}
	cases := []struct {
		name   string
		syntax Syntax
		// text builds a file nested n levels deep.
		text func(n int) string
	}{
		{"toml arrays", TOML, func(n int) string { return "a = " + deep("[", "1", "]", n-1) }},
		{"toml inline tables", TOML, func(n int) string { return "a = " + deep("{b = ", "1", "}", n-1) }},
		{"toml arrays of tables", TOML, func(n int) string { return "a = " + deep("[{b = ", "1", "}]", (n-1)/2) + strings.Repeat(" ", n%2) }},
		{"toml dotted key", TOML, func(n int) string { return dotted(n) + " = 1" }},
		{"toml header", TOML, func(n int) string { return "[" + dotted(n-1) + "]\nx = 1" }},
		{"toml array of tables header", TOML, func(n int) string { return "[[" + dotted(n-2) + "]]\nx = 1" }},
		{"toml header then dotted key", TOML, func(n int) string { return "[" + dotted(n/2) + "]\n" + dotted(n-n/2) + " = 1" }},
		{"toml dotted keys in inline tables", TOML, func(n int) string {
			return dotted(n/2) + " = {" + dotted(n-n/2-1) + " = {x = 1}}"
		}},
		{"toml after a string holding a comment sign", TOML, func(n int) string { return `a = ["#", ` + deep("[", "1", "]", n-2) + "]" }},
		{"json arrays", JSON, func(n int) string { return deep("[", "1", "]", n) }},
		{"json objects", JSON, func(n int) string { return deep(`{"a":`, "1", "}", n) }},
		{"json after a comment", JSON, func(n int) string { return "// x\n/* y */" + deep("[", "", "]", n) }},
		{"yaml flow", YAML, func(n int) string { return "a: " + deep("[", "x", "]", n-1) }},
		{"yaml flow mappings", YAML, func(n int) string { return "a: " + deep("{b: ", "x", "}", n-1) }},
		{"yaml sequences on one line", YAML, func(n int) string { return strings.Repeat("- ", n-1) + "x\n" }},
		{"yaml indentation", YAML, func(n int) string {
			lines := strings.SplitAfter(indented.String(), "\n")
			return strings.Join(lines[:n], "")
		}},
	}
	for _, c := range cases {
		at := c.text(MaxNesting)
		if err := CheckNesting(c.name, []byte(at), c.syntax); err != nil {
			t.Errorf("%s at the bound: %v\n%s", c.name, err, at)
		}
		past := c.text(MaxNesting + 1)
		err := CheckNesting(c.name, []byte(past), c.syntax)
		var skip *SkipError
		if !errors.As(err, &skip) || !errors.Is(err, ErrSkipped) || !strings.Contains(skip.Reason, fmt.Sprintf("nested deeper than %d levels", MaxNesting)) {
			t.Errorf("%s past the bound: got %v\n%s", c.name, err, past)
		}
	}
}
