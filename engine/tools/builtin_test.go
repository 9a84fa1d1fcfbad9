package tools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// TestEveryBuiltinToolMeetsAMalformedCall: each built-in tool, todo_write
// and web_fetch included, describes itself with an object schema whose
// required arguments exist; a call whose arguments are not JSON (or not
// the schema's object) is named by the tool's name alone, refused by its
// preview and by Run with an error naming the tool, never a panic.
func TestEveryBuiltinToolMeetsAMalformedCall(t *testing.T) {
	ws := newTree(t, map[string]string{"a.txt": "a\n"})
	tools := Builtin(ws, Limits{}, testBox(ws), &WebFetchOptions{})
	names := map[string]bool{}
	for _, tool := range tools {
		names[tool.Name()] = true
		var schema struct {
			Type       string                     `json:"type"`
			Properties map[string]json.RawMessage `json:"properties"`
			Required   []string                   `json:"required"`
		}
		if err := json.Unmarshal(tool.Schema(), &schema); err != nil || schema.Type != "object" || tool.Description() == "" {
			t.Errorf("%s: schema %s (%v), description %q", tool.Name(), tool.Schema(), err, tool.Description())
		}
		for _, r := range schema.Required {
			if _, ok := schema.Properties[r]; !ok {
				t.Errorf("%s requires %q, which is not a property", tool.Name(), r)
			}
		}
		for _, bad := range []string{`{"path":`, `[1,2]`, `"text"`} {
			args := json.RawMessage(bad)
			if got := tool.Title(args); got != tool.Name() {
				t.Errorf("%s.Title(%s) = %q, want the tool's name", tool.Name(), bad, got)
			}
			if p, ok := tool.(Previewer); ok {
				if _, err := p.Preview(context.Background(), args); err == nil {
					t.Errorf("%s.Preview(%s) succeeded", tool.Name(), bad)
				}
			}
			if _, err := tool.Run(context.Background(), args); err == nil || !strings.Contains(err.Error(), tool.Name()) {
				t.Errorf("%s.Run(%s): %v, want an error naming the tool", tool.Name(), bad, err)
			}
		}
	}
	for _, want := range []string{"todo_write", "web_fetch", "run_command", "edit_file"} {
		if !names[want] {
			t.Errorf("Builtin lacks %s", want)
		}
	}
	if len(Builtin(ws, Limits{}, testBox(ws), nil)) != len(tools)-1 {
		t.Error("without fetch options web_fetch is still built")
	}
}
