// Package tools holds the tools an agent can call (read_file, list_files,
// find_files, grep, write_file, edit_file, run_command, todo_write,
// web_fetch), the workspace guardrails they all go through, and the
// registry that hands each agent only the tools it is allowed.
package tools

import (
	"context"
	"encoding/json"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// Tool is one capability offered to the model.
type Tool interface {
	// Name is the name the model calls, e.g. "read_file".
	Name() string
	// Description tells the model what the tool does and when to use it.
	Description() string
	// Schema is the JSON schema of the arguments object.
	Schema() json.RawMessage
	// ReadOnly tools change nothing and run without asking.
	ReadOnly() bool
	// Title renders a call on one line for people ("read_file engine/loop.go").
	// It must not fail: with unparsable args it returns the bare name.
	Title(args json.RawMessage) string
	// Run executes the call. A model mistake (bad arguments, a path outside
	// the workspace, a missing file) is returned as an error; the caller
	// sends it back to the model as a tool error.
	Run(ctx context.Context, args json.RawMessage) (Result, error)
}

// Previewer is implemented by tools that need approval: Preview shows
// exactly what will run or change (the command line, or a unified diff)
// without doing it. An error means the call would fail anyway.
type Previewer interface {
	Preview(ctx context.Context, args json.RawMessage) (string, error)
}

// Result is a tool call's outcome.
type Result struct {
	// Output is what the model receives, already bounded.
	Output string
	// Summary is a short note for people ("120 lines", "exit 1").
	Summary string
	// Diff is a unified diff for calls that changed a file.
	Diff string
	// Todos is the task list a todo_write call set (nil for other
	// tools); the executor shows it to the person.
	Todos []event.Todo
	// Usage is what sub-agents spent producing the result (task), so the
	// caller counts it exactly once; zero for other tools.
	Usage event.Usage
	// Images are pictures the result holds (an MCP tool's screenshot),
	// already checked; Output names each with a placeholder. The executor
	// shows them to a model that takes images.
	Images []Image
}
