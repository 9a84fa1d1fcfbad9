package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// TaskToolName is the name of the delegation tool.
const TaskToolName = "task"

// maxTimeoutS bounds a task call's timeout_s: a day.
const maxTimeoutS = 24 * 60 * 60

// taskTool offers delegation to the model. Each call starts a child and,
// unless it runs in the background, waits for the child's report. Its
// calls run alongside their message's other calls, readied in the order
// requested so the children are numbered and their cards shown that way.
type taskTool struct {
	d *delegator
}

// taskArgs are the task tool's arguments.
type taskArgs struct {
	Description  string `json:"description"`
	Prompt       string `json:"prompt"`
	SubagentType string `json:"subagent_type"`
	Instructions string `json:"instructions"`
	Model        string `json:"model"`
	TimeoutS     int    `json:"timeout_s"`
	Effort       string `json:"effort"`
}

// Name implements tools.Tool.
func (t *taskTool) Name() string { return TaskToolName }

// ReadOnly implements tools.Tool: delegation always goes through approval.
func (t *taskTool) ReadOnly() bool { return false }

// Title implements tools.Tool: "task [Explore] find auth code".
func (t *taskTool) Title(args json.RawMessage) string {
	var a taskArgs
	if json.Unmarshal(args, &a) != nil {
		return TaskToolName
	}
	if x, err := parseTaskExtras(args); err == nil && x.Resume != "" {
		return t.followUpTitle(x.Resume, a.Description)
	}
	// The registry's display name, the spelling every pane uses too.
	kind := a.SubagentType
	if typ, ok := t.d.types.Lookup(kind); ok {
		kind = typ.DisplayName
	} else if kind == "" {
		kind = "Custom"
	}
	return fmt.Sprintf("task [%s] %s", kind, a.Description)
}

// Run implements tools.Tool: it readies the child for the calling agent
// (type, tools, model, id, the card the person answers), waits for its
// siblings of the same message to be ready too, then runs it through its
// approval, slot, run and result.
func (t *taskTool) Run(ctx context.Context, args json.RawMessage) (tools.Result, error) {
	call, ok := callOf(ctx)
	if !ok {
		return tools.Result{}, errors.New("task runs only as a tool call of an agent")
	}
	p, err := t.d.prepare(ctx, call.agent, call.id, args)
	call.stage.ready()
	if err != nil {
		return tools.Result{}, err
	}
	return p.run(), nil
}

// runsAlongside implements alongside: task calls run together, and the
// delegation card is their approval.
func (t *taskTool) runsAlongside() {}

// Schema implements tools.Tool.
func (t *taskTool) Schema() json.RawMessage {
	return withExtras(json.RawMessage(`{
  "type": "object",
  "properties": {
    "description": {"type": "string", "description": "A short (3-5 word) title of the task, shown to the person."},
    "prompt": {"type": "string", "description": "The full instructions for the sub-agent. It starts with no memory of this conversation, so include every fact, path and constraint it needs, and say what its final report should contain."},
    "subagent_type": {"type": "string", "description": "The type of sub-agent to run; one of the types listed in the tool description."},
    "instructions": {"type": "string", "description": "Optional custom system instructions. Without subagent_type this makes a temporary read-only agent."},
    "model": {"type": "string", "description": "Optional model id for this sub-agent."},
    "timeout_s": {"type": "integer", "minimum": 1, "description": "Optional time limit in seconds; it can only shorten the configured limit."},
    "effort": {"type": "string", "enum": ["low", "medium", "high"], "description": "Optional reasoning effort for models that can reason."},
    "isolation": {"type": "string", "enum": ["worktree", "shared"], "description": "Optional: worktree runs the sub-agent in a git worktree of its own, so parallel writers never clash; its change reaches the working tree only after the person reviews it. shared runs it in the working tree."}
  },
  "required": ["description", "prompt"]
}`))
}

// Description implements tools.Tool: it lists every available type the way
// people and models read them.
func (t *taskTool) Description() string {
	var b strings.Builder
	b.WriteString("Delegate a sub-task to a sub-agent that works on its own and returns only its final report to you.\n\n")
	b.WriteString("Available sub-agent types (subagent_type):\n")
	for _, typ := range t.d.types.Visible() {
		tools := "none"
		if offered := t.d.offeredTools(typ); len(offered) > 0 {
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

// parseTaskArgs decodes and checks a task call. Its errors go back to the
// model.
func parseTaskArgs(raw json.RawMessage, types *agenttypes.Registry) (taskArgs, error) {
	var a taskArgs
	if err := json.Unmarshal(raw, &a); err != nil {
		return a, fmt.Errorf("invalid arguments for task: %w", err)
	}
	a.Prompt = strings.TrimSpace(a.Prompt)
	if a.Prompt == "" {
		return a, errors.New("task needs a prompt: the full instructions for the sub-agent")
	}
	if a.SubagentType == "" && strings.TrimSpace(a.Instructions) == "" {
		return a, fmt.Errorf("task needs subagent_type (one of: %s) or instructions for a temporary agent", strings.Join(types.Names(), ", "))
	}
	if a.TimeoutS < 0 || a.TimeoutS > maxTimeoutS {
		return a, fmt.Errorf("timeout_s must be between 1 and %d seconds", maxTimeoutS)
	}
	switch a.Effort {
	case "", "low", "medium", "high":
	default:
		return a, fmt.Errorf("effort must be low, medium or high, not %q", a.Effort)
	}
	if strings.TrimSpace(a.Description) == "" {
		a.Description = clip(firstLine(a.Prompt), 40)
	}
	return a, nil
}
