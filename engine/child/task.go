package child

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// TaskToolName is the name of the delegation tool.
const TaskToolName = "task"

// taskTool offers delegation to the model. Each call starts a child and,
// unless it runs in the background, waits for the child's report. Its
// calls run alongside their message's other calls, readied in the order
// requested so the children are numbered and their cards shown that way.
type taskTool struct {
	m *Manager
}

// Name implements tools.Tool.
func (t *taskTool) Name() string { return TaskToolName }

// ReadOnly implements tools.Tool: delegation always goes through approval.
func (t *taskTool) ReadOnly() bool { return false }

// Title implements tools.Tool: "task [Explore] find auth code", or for a
// follow-up "task [Explore] continue #3: description". It shows what
// the call asks for even when the call will be refused.
func (t *taskTool) Title(args json.RawMessage) string {
	var c taskCall
	if json.Unmarshal(args, &c) != nil {
		return TaskToolName
	}
	if c.Resume = strings.TrimSpace(c.Resume); c.Resume != "" {
		return t.m.followUpTitle(c.Resume, strings.TrimSpace(c.Description))
	}
	// The registry's display name, the spelling every pane uses too.
	kind := c.SubagentType
	if typ, ok := t.m.opts.Types.Lookup(kind); ok {
		kind = typ.DisplayName
	} else if kind == "" {
		kind = "Custom"
	}
	return fmt.Sprintf("task [%s] %s", kind, c.Description)
}

// Run implements tools.Tool: a task call acts for the agent calling it,
// so it runs only through RunFor.
func (t *taskTool) Run(context.Context, json.RawMessage) (tools.Result, error) {
	return tools.Result{}, errors.New("task runs only as a tool call of an agent")
}

// RunFor implements agent.CallerTool: it readies the child for the
// calling agent (spec, id, the card the person answers), waits for its
// siblings of the same message to be ready too, then runs it through its
// approval, slot, run and result.
func (t *taskTool) RunFor(ctx context.Context, call agent.Call) (tools.Result, error) {
	c, err := t.m.prepare(ctx, call)
	call.Stage.Ready()
	if err != nil {
		return tools.Result{}, err
	}
	return c.run(), nil
}

// Schema implements tools.Tool.
func (t *taskTool) Schema() json.RawMessage {
	return json.RawMessage(`{
  "type": "object",
  "properties": {
    "description": {"type": "string", "description": "A short (3-5 word) title of the task, shown to the person."},
    "prompt": {"type": "string", "description": "The full instructions for the sub-agent. It starts with no memory of this conversation, so include every fact, path and constraint it needs, and say what its final report should contain."},
    "subagent_type": {"type": "string", "description": "The type of sub-agent to run; one of the types listed in the tool description."},
    "instructions": {"type": "string", "description": "Optional custom system instructions. Without subagent_type this makes a temporary read-only agent."},
    "model": {"type": "string", "description": "Optional model id for this sub-agent."},
    "timeout_s": {"type": "integer", "minimum": 1, "description": "Optional time limit in seconds; it can only shorten the configured limit."},
    "effort": {"type": "string", "enum": ["low", "medium", "high"], "description": "Optional reasoning effort for models that can reason."},
    "isolation": {"type": "string", "enum": ["worktree", "shared"], "description": "Optional: worktree runs the sub-agent in a git worktree of its own, so parallel writers never clash; its change reaches the working tree only after the person reviews it. shared runs it in the working tree."},
    "verify": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}], "description": "Optional shell command(s), e.g. \"go test ./...\", run on the sub-agent's change in its worktree when it finishes; you get the result with its report. Replaces the configured verify command."},
    ` + extraProperties + `
  },
  "required": ["description", "prompt"]
}`)
}

// Description implements tools.Tool: it lists every available type the way
// people and models read them.
func (t *taskTool) Description() string {
	var b strings.Builder
	b.WriteString("Delegate a sub-task to a sub-agent that works on its own and returns only its final report to you.\n\n")
	b.WriteString("Available sub-agent types (subagent_type):\n")
	for _, typ := range t.m.opts.Types.Visible() {
		tools := "none"
		if offered := t.m.offeredTools(typ); len(offered) > 0 {
			tools = strings.Join(offered, ", ")
		}
		fmt.Fprintf(&b, "- %s: %s (Tools: %s)\n", typ.Name, typ.Description, tools)
	}
	b.WriteString("\nUsage notes:\n")
	b.WriteString("- Several task calls in one message run in parallel: when sub-tasks are independent, send them together.\n")
	b.WriteString("- Each sub-agent starts with no memory of this conversation. The prompt must carry everything it needs: the goal, relevant paths and facts, constraints, and what to report back.\n")
	b.WriteString("- The person may approve, deny or edit each delegation. The result ends with a status line (completed, max_steps, timed_out, failed, cancelled or denied); trust that status over the text.\n")
	b.WriteString("- Without subagent_type, give instructions to make a temporary read-only agent.\n")
	b.WriteString("- Sub-agents that write and run at the same time get git worktrees of their own (isolation): their changes reach the working tree only when the person applies them, and you are told what was applied.\n")
	b.WriteString(extrasNotes)
	return b.String()
}
