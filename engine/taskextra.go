package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// taskExtras are the task arguments that decide how the call waits and
// what the child starts from, kept apart from taskArgs (what the child
// is) so each set grows on its own.
type taskExtras struct {
	// Background returns at once with the child's id; its result is
	// delivered to the main agent when it ends.
	Background bool `json:"background"`
	// Resume continues a finished child of this session: its history
	// plus the new prompt, same type, tools and model.
	Resume string `json:"resume"`
}

// extraProperties are the schema entries of taskExtras.
const extraProperties = `"background": {"type": "boolean", "description": "Run the sub-agent in the background: the call returns at once with its id and you keep working; its result is delivered to you when it ends. Use task_status and task_wait to check on it or wait for it."},
    "resume": {"type": "string", "description": "The id (or #number) of a finished sub-agent of this session to continue: it keeps its own history and gets prompt as its next message, with the same type, tools and model."}`

// withExtras adds the extras to the task schema, whose properties end
// with the last one before the closing braces.
func withExtras(schema json.RawMessage) json.RawMessage {
	s := string(schema)
	at := strings.Index(s, "\n  },\n  \"required\"")
	if at < 0 {
		return schema
	}
	return json.RawMessage(s[:at] + ",\n    " + extraProperties + s[at:])
}

// extrasNotes are the task description's lines about the extras.
const extrasNotes = "- With background: true the call returns at once with the sub-agent's id (\"started #3 in the background\"); its result arrives later as a message \"[#3 done] …\". task_status reports progress; task_wait waits with a timeout.\n" +
	"- With resume: \"<id>\" a finished sub-agent continues with its own earlier history plus your new prompt; it does not see this conversation either. subagent_type and instructions are then ignored.\n"

// parseTaskExtras decodes the extras of a task call; errors go back to
// the model.
func parseTaskExtras(raw json.RawMessage) (taskExtras, error) {
	var x taskExtras
	if err := json.Unmarshal(raw, &x); err != nil {
		return x, fmt.Errorf("invalid arguments for task: %w", err)
	}
	x.Resume = strings.TrimSpace(x.Resume)
	return x, nil
}

// parseFollowUpArgs decodes a task call that resumes a child: the type
// comes from the child, so only the prompt is required.
func parseFollowUpArgs(raw json.RawMessage) (taskArgs, error) {
	var a taskArgs
	if err := json.Unmarshal(raw, &a); err != nil {
		return a, fmt.Errorf("invalid arguments for task: %w", err)
	}
	a.Prompt = strings.TrimSpace(a.Prompt)
	if a.Prompt == "" {
		return a, errors.New("task with resume needs a prompt: what the sub-agent should do next")
	}
	if a.TimeoutS < 0 || a.TimeoutS > maxTimeoutS {
		return a, fmt.Errorf("timeout_s must be between 1 and %d seconds", maxTimeoutS)
	}
	a.Description = strings.TrimSpace(a.Description)
	return a, nil
}
