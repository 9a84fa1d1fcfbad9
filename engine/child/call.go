package child

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/seed-e4e525a6/baton/agenttypes"
)

// maxTimeoutS bounds a task call's timeout_s: a day.
const maxTimeoutS = 24 * 60 * 60

// taskCall is a task call's arguments, decoded and checked once where
// the call is read; every later step reads the spec made from it.
type taskCall struct {
	Description  string `json:"description"`
	Prompt       string `json:"prompt"`
	SubagentType string `json:"subagent_type"`
	Instructions string `json:"instructions"`
	Model        string `json:"model"`
	TimeoutS     int    `json:"timeout_s"`
	Effort       string `json:"effort"`
	// Isolation is "worktree", "shared" or "" (decided by the type and
	// [subagents] isolation).
	Isolation string `json:"isolation"`
	// Verify is the command (or commands) the parent asks to be run on
	// the child's change in its worktree when it finishes.
	Verify commands `json:"verify"`
	// Background returns at once with the child's id; its result is
	// delivered to the main agent when it ends.
	Background bool `json:"background"`
	// Resume continues a finished child of this session: its history
	// plus the new prompt, same type, tools and model.
	Resume string `json:"resume"`
	// Budget may lower the child's budget, never raise it.
	Budget *callBudget `json:"budget"`
}

// callBudget is what a task call may ask of a child's budget.
type callBudget struct {
	Tokens  int     `json:"tokens"`
	CostUSD float64 `json:"cost_usd"`
	Steps   int     `json:"steps"`
	TimeS   int     `json:"time_s"`
}

// readTaskCall decodes and checks a task call. Its errors go back to the
// model.
func readTaskCall(raw json.RawMessage, types *agenttypes.Registry) (taskCall, error) {
	var c taskCall
	if err := json.Unmarshal(raw, &c); err != nil {
		return c, fmt.Errorf("invalid arguments for task: %w", err)
	}
	c.Resume = strings.TrimSpace(c.Resume)
	c.Prompt = strings.TrimSpace(c.Prompt)
	switch c.Isolation {
	case "", IsolationWorktree, IsolationShared:
	default:
		return c, fmt.Errorf("isolation must be %q or %q, not %q", IsolationWorktree, IsolationShared, c.Isolation)
	}
	if err := c.Verify.check(); err != nil {
		return c, err
	}
	if c.TimeoutS < 0 || c.TimeoutS > maxTimeoutS {
		return c, fmt.Errorf("timeout_s must be between 1 and %d seconds", maxTimeoutS)
	}
	if b := c.Budget; b != nil && (b.Tokens < 0 || b.CostUSD < 0 || b.Steps < 0 || b.TimeS < 0) {
		return c, errors.New("budget: tokens, cost_usd, steps and time_s must be positive; each can only lower the configured budget")
	}
	if c.Resume != "" {
		// The type comes from the child it continues: only the prompt is
		// required.
		if c.Prompt == "" {
			return c, errors.New("task with resume needs a prompt: what the sub-agent should do next")
		}
		c.Description = strings.TrimSpace(c.Description)
		return c, nil
	}
	if c.Prompt == "" {
		return c, errors.New("task needs a prompt: the full instructions for the sub-agent")
	}
	if c.SubagentType == "" && strings.TrimSpace(c.Instructions) == "" {
		return c, fmt.Errorf("task needs subagent_type (one of: %s) or instructions for a temporary agent", strings.Join(types.Names(), ", "))
	}
	switch c.Effort {
	case "", "low", "medium", "high":
	default:
		return c, fmt.Errorf("effort must be low, medium or high, not %q", c.Effort)
	}
	if strings.TrimSpace(c.Description) == "" {
		c.Description = clip(firstLine(c.Prompt), 40)
	}
	return c, nil
}

// extraProperties are the schema entries of the arguments that decide
// how the call waits and what the child starts from.
const extraProperties = `"budget": {"type": "object", "description": "Optional budget for the sub-agent; it can only lower the configured one. When it runs out, the sub-agent reports what it has in one last step.", "properties": {"tokens": {"type": "integer", "minimum": 1}, "cost_usd": {"type": "number", "exclusiveMinimum": 0}, "steps": {"type": "integer", "minimum": 1}, "time_s": {"type": "integer", "minimum": 1}}},
    "background": {"type": "boolean", "description": "Run the sub-agent in the background: the call returns at once with its id and you keep working; its result is delivered to you when it ends. Use task_status and task_wait to check on it or wait for it."},
    "resume": {"type": "string", "description": "The id (or #number) of a finished sub-agent of this session to continue: it keeps its own history and gets prompt as its next message, with the same type, tools and model."}`

// extrasNotes are the task description's lines about those arguments.
const extrasNotes = "- With background: true the call returns at once with the sub-agent's id (\"started #3 in the background\"); its result arrives later as a message \"[#3 done] …\". task_status reports progress; task_wait waits with a timeout.\n" +
	"- With resume: \"<id>\" a finished sub-agent continues with its own earlier history plus your new prompt; it does not see this conversation either. subagent_type and instructions are then ignored.\n"

// clip shortens s to max characters, marking the cut.
func clip(s string, max int) string {
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	return string([]rune(s)[:max]) + "…"
}

// firstLine returns the first line of s.
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
