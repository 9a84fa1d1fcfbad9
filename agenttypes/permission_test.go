package agenttypes

import (
	"reflect"
	"slices"
	"testing"
)

func TestPermission(t *testing.T) {
	tests := []struct {
		name, fields string
		want         Rules
		tools        []string // nil: the base tools
		warns        []string
	}{
		{name: "one action for everything", fields: "permission: ask\n",
			want:  Rules{Ask: []string{"run_command", "edit_file", "write_file", "find_files", "grep", "list_files", "read_file", "web_fetch", "todo_write"}},
			tools: append(slices.Clone(BaseTools), "web_fetch")},
		{name: "catch-all first, exceptions after", fields: "permission:\n  bash:\n    \"*\": ask\n    \"npm test\": allow\n    \"git *\": allow\n",
			want: Rules{Allow: []string{"run_command(npm test)", "run_command(git:*)"}, Ask: []string{"run_command"}}},
		{name: "catch-all allow with a stricter exception", fields: "permission:\n  bash:\n    \"rm *\": deny\n    \"*\": allow\n",
			want: Rules{Allow: []string{"run_command"}, Deny: []string{"run_command(rm:*)"}}},
		{name: "edit paths", fields: "permission:\n  edit:\n    \"*\": deny\n    \"docs/**\": allow\n",
			want: Rules{Allow: []string{"edit_file(docs/**)", "write_file(docs/**)"}, Deny: []string{"edit_file", "write_file"}}},
		{name: "exactly git diff and git log", fields: "permission:\n  bash:\n    \"git diff*\": allow\n    \"git log*\": allow\n    \"*\": deny\n",
			want: Rules{Allow: []string{"run_command(git diff:*)", "run_command(git log:*)"}, Deny: []string{"run_command"}}},
		{name: "denied outright is removed", fields: "permission:\n  edit: deny\n  webfetch: allow\n",
			want:  Rules{Allow: []string{"web_fetch"}, Deny: []string{"edit_file", "write_file"}},
			tools: []string{"read_file", "list_files", "find_files", "grep", "run_command", "todo_write", "web_fetch"}},
		// OpenCode's webfetch is every agent's unless switched off, so a
		// permission for it grants it; a tools map saying false, or a
		// Claude Code tools list leaving it out, keeps it away.
		{name: "webfetch switched off stays off", fields: "tools:\n  webfetch: false\npermission:\n  webfetch: allow\n",
			want: Rules{Allow: []string{"web_fetch"}}},
		{name: "a tools list names every tool", fields: "tools: Read, Grep\npermission:\n  webfetch: ask\n",
			want: Rules{Ask: []string{"web_fetch"}}, tools: []string{"read_file", "grep"}},
		{name: "global then a key", fields: "permission:\n  \"*\": deny\n  read: allow\n  task: allow\n  \"mcp_*\": allow\n",
			want:  Rules{Allow: []string{"read_file"}, Deny: []string{"run_command", "edit_file", "write_file", "find_files", "grep", "list_files", "web_fetch", "todo_write"}},
			tools: []string{"read_file"}},
		// OpenCode's edit covers every tool that changes a file: under a
		// top-level deny, edit: allow must leave write_file as well.
		{name: "edit allowed under a global deny", fields: "permission:\n  \"*\": deny\n  edit: allow\n",
			want:  Rules{Allow: []string{"edit_file", "write_file"}, Deny: []string{"run_command", "find_files", "grep", "list_files", "read_file", "web_fetch", "todo_write"}},
			tools: []string{"write_file", "edit_file"}},
		{name: "bad action", fields: "permission:\n  bash: sometimes\n", warns: []string{"4: permission permission.bash must be allow, ask or deny"}},
		{name: "not a map", fields: "permission: [a]\n", warns: []string{"3: permission must be allow, ask or deny, or a map"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, warns, err := ParseFile("a.md", agentDoc(tt.fields))
			if err != nil {
				t.Fatalf("ParseFile: %v", err)
			}
			if !sameRules(got.Permissions, tt.want) {
				t.Errorf("Permissions = %+v, want %+v", got.Permissions, tt.want)
			}
			tools := tt.tools
			if tools == nil {
				tools = BaseTools
			}
			if !slices.Equal(got.Tools, tools) {
				t.Errorf("Tools = %q, want %q", got.Tools, tools)
			}
			checkWarnings(t, "a.md", warns, tt.warns)
		})
	}
}

// sameRules compares the rule sets ignoring order within each list.
func sameRules(a, b Rules) bool {
	sorted := func(s []string) []string { s = slices.Clone(s); slices.Sort(s); return s }
	return reflect.DeepEqual(sorted(a.Allow), sorted(b.Allow)) && reflect.DeepEqual(sorted(a.Ask), sorted(b.Ask)) &&
		reflect.DeepEqual(sorted(a.Deny), sorted(b.Deny))
}
