package child

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/agenttypes"
)

// TestReadTaskCallRefusesWhatItCannotRun: each model mistake in a task
// call's arguments is an error that names what to fix, for the model to
// read; a good call is trimmed and gets a description from its prompt.
func TestReadTaskCallRefusesWhatItCannotRun(t *testing.T) {
	types := agenttypes.NewRegistry(agenttypes.Builtins()...)
	for args, want := range map[string]string{
		`{"prompt": 3}`: "invalid arguments for task",
		`{"prompt":"p","subagent_type":"explore","isolation":"vm"}`:      `isolation must be "worktree" or "shared", not "vm"`,
		`{"prompt":"p","subagent_type":"explore","timeout_s":-1}`:        "timeout_s must be between 1 and",
		`{"prompt":"p","subagent_type":"explore","timeout_s":99999999}`:  "timeout_s must be between 1 and",
		`{"prompt":"p","subagent_type":"explore","budget":{"steps":-2}}`: "budget: tokens, cost_usd, steps and time_s must be positive",
		`{"resume":"explore-1","prompt":"  "}`:                           "task with resume needs a prompt",
		`{"prompt":" ","subagent_type":"explore"}`:                       "task needs a prompt",
		`{"prompt":"p"}`: "task needs subagent_type (one of: ",
		`{"prompt":"p","subagent_type":"explore","effort":"extreme"}`:                                                             `effort must be low, medium or high, not "extreme"`,
		`{"prompt":"p","subagent_type":"explore","verify":3}`:                                                                     "verify must be a command or a list of commands",
		`{"prompt":"p","subagent_type":"explore","verify":[" ",""]}`:                                                              `verify is empty: give a command such as "go test ./...", or leave it out`,
		`{"prompt":"p","subagent_type":"explore","verify":["a","b","c","d","e","f","g","h","i","j","k","l","m","n","o","p","q"]}`: "verify may hold at most 16 commands",
	} {
		_, err := readTaskCall(json.RawMessage(args), types)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("readTaskCall(%s) = %v, want %q", args, err, want)
		}
	}
	c, err := readTaskCall(json.RawMessage(`{"prompt":"  find every caller of Login in the auth package and its tests\nthen report  ","subagent_type":"explore"}`), types)
	if err != nil {
		t.Fatal(err)
	}
	if c.Description != "find every caller of Login in the auth p…" || strings.HasSuffix(c.Prompt, " ") {
		t.Fatalf("description %q, prompt %q", c.Description, c.Prompt)
	}
	for args, want := range map[string][]string{
		`{"prompt":"p","subagent_type":"explore","verify":" go test ./... "}`:             {"go test ./..."},
		`{"prompt":"p","subagent_type":"explore","verify":["go vet ./...", " ", "make"]}`: {"go vet ./...", "make"},
		`{"prompt":"p","subagent_type":"explore","verify":null}`:                          nil,
	} {
		c, err := readTaskCall(json.RawMessage(args), types)
		if err != nil || !slices.Equal(c.Verify, want) {
			t.Errorf("readTaskCall(%s) verify %q, %v; want %q", args, c.Verify, err, want)
		}
	}
	c, err = readTaskCall(json.RawMessage(`{"resume":" explore-1 ","prompt":"go on","description":" more "}`), types)
	if err != nil || c.Resume != "explore-1" || c.Description != "more" {
		t.Fatalf("resume call %+v, %v", c, err)
	}
}
