package main

import (
	"reflect"
	"testing"

	"github.com/spf13/pflag"
)

// A repeatable flag keeps every value in the order given, commas and
// all, and shows no default.
func TestRepeatedFlagKeepsEveryValueInOrder(t *testing.T) {
	v, err := parseFlags([]string{"--allow", "read_file,grep", "--mcp-config", "a.json", "--allow", "run_command(go test:*)",
		"--allowedTools", "Edit", "--allowedTools", "Bash(git log:*) Read", "--mcp-config", "b.json"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a.json", "b.json"}; !reflect.DeepEqual(v.mcpConfig, want) {
		t.Errorf("mcp-config %q, want %q", v.mcpConfig, want)
	}
	if want := []string{"Edit", "Bash(git log:*)", "Read"}; !reflect.DeepEqual(v.claude.allowedTools, want) {
		t.Errorf("allowedTools %q, want %q", v.claude.allowedTools, want)
	}
	fs := newFlagSet()
	if err := fs.Parse([]string{"--child-budget", "steps=3", "--child-budget", "time=9"}); err != nil {
		t.Fatal(err)
	}
	if got := repeatedValues(fs, "child-budget"); !reflect.DeepEqual(got, []string{"steps=3", "time=9"}) {
		t.Errorf("child-budget %q", got)
	}
	if got := fs.Lookup("allow").DefValue; got != "" {
		t.Errorf("--allow shows the default %q", got)
	}
}

// No flag is pflag's StringArray, which writes its default through
// encoding/csv as the flag set is built, at every start.
func TestNoFlagIsAStringArray(t *testing.T) {
	newFlagSet().VisitAll(func(f *pflag.Flag) {
		if f.Value.Type() == "stringArray" || f.Value.Type() == "stringSlice" {
			t.Errorf("--%s is a %s", f.Name, f.Value.Type())
		}
	})
}
