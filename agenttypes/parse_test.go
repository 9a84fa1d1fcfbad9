package agenttypes

import (
	"reflect"
	"testing"
	"time"
)

// agentDoc wraps frontmatter fields in a file with a description and body.
func agentDoc(fields string) []byte {
	return []byte("---\ndescription: d\n" + fields + "---\nPrompt.\n")
}

func TestParseFileTools(t *testing.T) {
	tests := []struct {
		name    string
		fields  string
		tools   []string
		unknown []string
		warns   []string
	}{
		{"omitted means base tools", "", BaseTools, nil, nil},
		{"empty string means base tools", "tools: \"\"\n", BaseTools, nil, nil},
		{"empty list means none", "tools: []\n", nil, nil, nil},
		{"claude names", "tools: Read, LS, Glob, Grep, Write, Edit, MultiEdit, Bash\n",
			[]string{"read_file", "list_files", "find_files", "grep", "write_file", "edit_file", "run_command"}, nil, nil},
		{"lowercase and baton names", "tools: [read, ls, glob, Read_File, RUN_COMMAND]\n",
			[]string{"read_file", "list_files", "find_files", "run_command"}, nil, nil},
		{"list entries holding commas", "tools:\n  - read_file, grep\n  - Bash\n",
			[]string{"read_file", "grep", "run_command"}, nil, nil},
		{"unknown names dropped, mcp names kept", "tools: Read, WebSearch, mcp__github__get_issue, NotebookRead\n",
			[]string{"read_file", "mcp__github__get_issue"}, []string{"WebSearch", "NotebookRead"}, nil},
		{"delegation ignored", "tools: Read, Task, Agent\n", []string{"read_file"}, nil, nil},
		{"delegation switched on ignored", "tools: {Task: true, agent: true}\n", BaseTools, nil, nil},
		{"non-text list entry dropped", "tools:\n  - Read\n  - {a: b}\n", []string{"read_file"}, nil,
			[]string{"5: tools: ignored an entry that is not text"}},
		{"opencode switches", "tools:\n  write: false\n  bash: false\n  task: false\n",
			[]string{"read_file", "list_files", "find_files", "grep", "edit_file", "todo_write"}, nil, nil},
		{"opencode yes and no", "tools: {write: no, edit: off}\n",
			[]string{"read_file", "list_files", "find_files", "grep", "run_command", "todo_write"}, nil, nil},
		{"opencode unknown on", "tools: {websearch: true, todoread: false}\n", BaseTools, []string{"websearch"}, nil},
		{"opencode wildcard matching nothing", "tools: {\"mymcp_*\": false}\n", BaseTools, nil, nil},
		{"opencode wildcard off then on", "tools:\n  \"*\": false\n  read: true\n  grep: true\n", []string{"read_file", "grep"}, nil, nil},
		{"opencode wildcard by alias", "tools: {\"*edit\": false, \"w*\": false}\n",
			[]string{"read_file", "list_files", "find_files", "grep", "run_command", "todo_write"}, nil, nil},
		{"opencode later entry wins", "tools: {bash: false, \"*\": true}\n",
			[]string{"read_file", "list_files", "find_files", "grep", "write_file", "edit_file", "todo_write", "run_command", "web_fetch",
				"list_mcp_resources", "read_mcp_resource"}, nil, nil},
		{"claude resource tools", "tools: Read, ListMcpResourcesTool, ReadMcpResourceTool\n",
			[]string{"read_file", "list_mcp_resources", "read_mcp_resource"}, nil, nil},
		{"opencode bad pattern", "tools: {\"[\": false}\n", BaseTools, nil, []string{"3: tools: bad tool pattern ["}},
		{"mcp tools kept as written", "tools: Read, mcp__github__create_issue, mcp__playwright__*\n",
			[]string{"read_file", "mcp__github__create_issue", "mcp__playwright__*"}, nil, nil},
		{"opencode mcp switches", "tools: {\"mcp__github__*\": true, write: false}\n",
			[]string{"read_file", "list_files", "find_files", "grep", "edit_file", "run_command", "todo_write", "mcp__github__*"}, nil, nil},
		{"disallowed mcp tool", "tools: [Read, mcp__gh__push]\ndisallowedTools: mcp__gh__push\n", []string{"read_file"}, nil, nil},
		{"disallowed after tools", "tools: Read, Grep, Bash\ndisallowedTools: [Bash]\n", []string{"read_file", "grep"}, nil, nil},
		{"disallowed from defaults", "disallowed_tools: write_file, Edit\n",
			[]string{"read_file", "list_files", "find_files", "grep", "run_command", "todo_write"}, nil, nil},
		{"disallowed drops unknown", "tools: Read, WebSearch\ndisallowedTools: websearch\n", []string{"read_file"}, nil, nil},
		{"disallowed pattern", "disallowedTools: Bash(rm:*)\n",
			[]string{"read_file", "list_files", "find_files", "grep", "write_file", "edit_file", "todo_write"}, nil,
			[]string{"3: Bash(rm:*): argument patterns are not supported, so all of run_command is removed"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, warns, err := ParseFile("a.md", agentDoc(tt.fields))
			if err != nil {
				t.Fatalf("ParseFile: %v", err)
			}
			if !reflect.DeepEqual(comparable(got).Tools, comparable(Type{Tools: tt.tools}).Tools) {
				t.Errorf("Tools = %q, want %q", got.Tools, tt.tools)
			}
			if !reflect.DeepEqual(comparable(got).DroppedTools, tt.unknown) {
				t.Errorf("DroppedTools = %q, want %q", got.DroppedTools, tt.unknown)
			}
			checkWarnings(t, "a.md", warns, tt.warns)
		})
	}
}

func TestParseFileSkips(t *testing.T) {
	tests := []struct {
		name, data, want string
	}{
		{"switch not a bool", "---\ndescription: d\ntools:\n  write: sometimes\n---\n",
			"4: skipped: tools: each entry must be a tool name set to true or false"},
		{"disallowed as a map", "---\ndescription: d\ndisallowedTools: {bash: true}\n---\n",
			"3: skipped: disallowedTools must be a comma-separated string or a list"},
		{"description as a list", "---\ndescription: [a, b]\n---\n", "2: skipped: description must be text"},
		{"blank description", "---\ndescription: \"  \"\n---\n", "2: skipped: no description"},
		{"name as a map", "---\nname: {a: b}\ndescription: d\n---\n", "2: skipped: name must be text"},
		{"frontmatter is a list", "---\n- a\n- b\n---\n", "2: skipped: the frontmatter must be fields"},
		{"empty frontmatter", "---\n---\nbody\n", "1: skipped: no description"},
		{"yaml error line in file", "\ufeff---\r\nname: x\r\ndescription: d\r\n  bad: [\r\n---\r\n", "4: skipped: bad YAML"},
		{"leading text", "intro\n---\ndescription: d\n---\n", "1: skipped: no frontmatter"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _, err := ParseFile("agent.md", []byte(tt.data))
			if err == nil {
				t.Fatalf("ParseFile = %+v, want an error", got)
			}
			checkWarnings(t, "agent.md", []Warning{skipWarning(t, err)}, []string{tt.want})
		})
	}
}

func TestParseFileNameFromUnusableFileName(t *testing.T) {
	_, _, err := ParseFile("my agent.md", []byte("---\ndescription: d\n---\nx\n"))
	if err == nil {
		t.Fatal("ParseFile succeeded, want an error")
	}
	checkWarnings(t, "my agent.md", []Warning{skipWarning(t, err)}, []string{`1: skipped: name "my agent" has characters`})
}

func TestParseFileFields(t *testing.T) {
	tests := []struct {
		name  string
		data  string
		field func(Type) any
		want  any
		warns []string
	}{
		{name: "name from file", data: "---\ndescription: d\n---\nx\n",
			field: func(t Type) any { return t.Name + "|" + t.DisplayName }, want: "code_reviewer|Code Reviewer"},
		{name: "later alias wins", data: "---\ndescription: d\nmax_steps: 5\nmaxTurns: 9\n---\nx\n",
			field: func(t Type) any { return t.MaxSteps }, want: 9,
			warns: []string{"4: maxTurns repeats a field set on line 3; the last one counts"}},
		{name: "timeout in minutes", data: "---\ndescription: d\ntimeout_mins: 1.5\n---\nx\n",
			field: func(t Type) any { return t.Timeout }, want: 90 * time.Second},
		{name: "timeout too long", data: "---\ndescription: d\ntimeout_mins: 99999\n---\nx\n",
			field: func(t Type) any { return t.Timeout }, want: time.Duration(0),
			warns: []string{"3: timeout_mins must be a number of minutes, 0 or more and at most 24 hours"}},
		{name: "timeout not a number", data: "---\ndescription: d\ntimeout_s: NaN\n---\nx\n",
			field: func(t Type) any { return t.Timeout }, want: time.Duration(0),
			warns: []string{"3: timeout_s must be a number of seconds"}},
		{name: "model inherit any case", data: "---\ndescription: d\nmodel: INHERIT\n---\nx\n",
			field: func(t Type) any { return t.Model }, want: InheritModel},
		{name: "model null", data: "---\ndescription: d\nmodel:\n---\nx\n",
			field: func(t Type) any { return t.Model }, want: InheritModel},
		{name: "hidden yes", data: "---\ndescription: d\nhidden: yes\nmode: all\n---\nx\n",
			field: func(t Type) any { return t.Hidden }, want: true},
		{name: "capabilities deduplicated", data: "---\ndescription: d\ncapabilities: [Vision, vision, reasoning]\n---\nx\n",
			field: func(t Type) any { return t.Capabilities }, want: []string{"vision", "reasoning"}},
		{name: "unknown fields kept", data: "---\ndescription: d\npermissionMode: plan\nx-owner: [ann]\n---\nx\n",
			field: func(t Type) any { return t.Extra }, want: map[string]any{"permissionMode": "plan", "x-owner": []any{"ann"}}},
		{name: "alias values", data: "---\ndescription: &d Reviews code\nsummary: *d\n---\nx\n",
			field: func(t Type) any { return t.Extra["summary"] }, want: "Reviews code"},
		{name: "crlf body trimmed", data: "---\r\ndescription: d\r\n---\r\n\r\nLine one.\r\nLine two.\r\n",
			field: func(t Type) any { return t.SystemPrompt }, want: "Line one.\nLine two."},
		{name: "empty body", data: "---\ndescription: d\n---\n\n",
			field: func(t Type) any { return t.SystemPrompt }, want: "",
			warns: []string{"4: the body is empty, so the agent has no system prompt"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, warns, err := ParseFile("agents/code_reviewer.md", []byte(tt.data))
			if err != nil {
				t.Fatalf("ParseFile: %v", err)
			}
			if g := tt.field(got); !reflect.DeepEqual(g, tt.want) {
				t.Errorf("field = %#v, want %#v", g, tt.want)
			}
			checkWarnings(t, "agents/code_reviewer.md", warns, tt.warns)
		})
	}
}

func TestDisplayName(t *testing.T) {
	for name, want := range map[string]string{
		"explore":           "Explore",
		"code-reviewer":     "Code Reviewer",
		"migration_planner": "Migration Planner",
		"api--v2":           "Api V2",
		"élan":              "Élan",
	} {
		if got := displayName(name); got != want {
			t.Errorf("displayName(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestWarningString(t *testing.T) {
	w := Warning{File: "a.md", Line: 3, Message: "bad"}
	if got := w.String(); got != "a.md:3: bad" {
		t.Errorf("String() = %q", got)
	}
	w.Line = 0
	if got := w.Error(); got != "a.md: bad" {
		t.Errorf("Error() = %q", got)
	}
}
