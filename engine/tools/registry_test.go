package tools

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/agenttypes"
)

func TestBaseSchemas(t *testing.T) {
	ws := newTree(t, nil)
	want := []string{"read_file", "list_files", "find_files", "grep", "write_file", "edit_file", "run_command"}
	readOnly := map[string]bool{"read_file": true, "list_files": true, "find_files": true, "grep": true}
	base := Base(ws, Limits{}, testBox(ws))
	if got := NewSet(base...).Names(); !slices.Equal(got, want) {
		t.Fatalf("Base names = %v, want %v", got, want)
	}
	for _, tool := range base {
		var schema struct {
			Type       string                     `json:"type"`
			Properties map[string]json.RawMessage `json:"properties"`
			Required   []string                   `json:"required"`
		}
		if err := json.Unmarshal(tool.Schema(), &schema); err != nil {
			t.Fatalf("%s schema: %v", tool.Name(), err)
		}
		if schema.Type != "object" || len(schema.Properties) == 0 {
			t.Errorf("%s schema is not an object with properties", tool.Name())
		}
		for _, r := range schema.Required {
			if _, ok := schema.Properties[r]; !ok {
				t.Errorf("%s requires %q, which is not a property", tool.Name(), r)
			}
		}
		if tool.ReadOnly() != readOnly[tool.Name()] {
			t.Errorf("%s ReadOnly() = %v", tool.Name(), tool.ReadOnly())
		}
		if _, ok := tool.(Previewer); ok == tool.ReadOnly() {
			t.Errorf("%s: a tool needs a Preview exactly when it is not read-only", tool.Name())
		}
		if tool.Description() == "" {
			t.Errorf("%s has no description", tool.Name())
		}
	}
}

func TestSet(t *testing.T) {
	ws := newTree(t, nil)
	all := NewSet(Base(ws, Limits{}, testBox(ws))...)
	if _, ok := all.Get("grep"); !ok {
		t.Fatal("Get(grep) missing")
	}
	if _, ok := all.Get("task"); ok {
		t.Fatal("Get(task) found a tool that does not exist")
	}
	only := all.Only([]string{"run_command", "grep", "task"})
	if got := only.Names(); !slices.Equal(got, []string{"grep", "run_command"}) {
		t.Fatalf("Only() = %v", got)
	}
	without := all.Without("write_file", "edit_file", "run_command")
	if got := without.Names(); !slices.Equal(got, []string{"read_file", "list_files", "find_files", "grep"}) {
		t.Fatalf("Without() = %v", got)
	}
	if len(all.Names()) != 7 {
		t.Fatalf("filters changed the original set: %v", all.Names())
	}
	replaced := all.With(readFile{ws: ws, lim: Limits{OutputChars: 1}.withDefaults()})
	if got := replaced.Names(); !slices.Equal(got, all.Names()) {
		t.Fatalf("With(existing) reordered the set: %v", got)
	}
	if tool, _ := replaced.Get("read_file"); tool.(readFile).lim.OutputChars != 1 {
		t.Fatal("With(existing) did not replace the tool")
	}
	grown := without.With(editFile{ws: ws})
	if got := grown.Names(); got[len(got)-1] != "edit_file" || len(without.Names()) != 4 {
		t.Fatalf("With(new) = %v, original %v", got, without.Names())
	}
	var none *Set
	if _, ok := none.Get("grep"); ok || len(none.Names()) != 0 || len(none.Only([]string{"grep"}).Names()) != 0 {
		t.Fatal("a nil set is not empty")
	}
}

func TestToOpenAI(t *testing.T) {
	ws := newTree(t, nil)
	defs := ToOpenAI(Base(ws, Limits{}, testBox(ws))[:1])
	data, err := json.Marshal(defs)
	if err != nil {
		t.Fatal(err)
	}
	got := string(data)
	for _, want := range []string{`"type":"function"`, `"name":"read_file"`, `"parameters":{"type":"object"`, `"required":["path"]`} {
		if !strings.Contains(got, want) {
			t.Errorf("ToOpenAI JSON %s lacks %s", got, want)
		}
	}
}

// Every tool a file registers has its entry in agenttypes' tool table,
// which orders the tools, so a tool added without one fails here (one
// with an entry and no file fails engine's TestToolTableIsWhatTheEngineBuilds);
// and with web_fetch's options Builtin builds each registered tool once.
func TestEveryRegisteredToolHasATableEntry(t *testing.T) {
	table := map[string]bool{}
	for _, info := range agenttypes.Tools() {
		table[info.Name] = true
	}
	for name := range builders {
		if !table[name] {
			t.Errorf("%s is registered but has no entry in agenttypes' tool table (agenttypes/tooltable.go)", name)
		}
	}
	ws := newTree(t, nil)
	all := Builtin(ws, Limits{}, testBox(ws), &WebFetchOptions{})
	if len(all) != len(builders) || NewSet(all...).Names()[len(all)-1] != "web_fetch" {
		t.Errorf("Builtin built %v of %d registered", NewSet(all...).Names(), len(builders))
	}
	if without := Builtin(ws, Limits{}, testBox(ws), nil); len(without) != len(builders)-1 {
		t.Errorf("without web_fetch's options: %v", NewSet(without...).Names())
	}
}
