// Package agenttypes is the registry of sub-agent types: the built-in ones
// (explore, plan, review, test, general-purpose) and the ones people define
// in Markdown files. Plain data and parsing only: no goroutines, no network.
package agenttypes

import (
	"fmt"
	"time"
)

// InheritModel, as a type's model, means "use the session's sub-agent model".
const InheritModel = "inherit"

// Type describes one kind of sub-agent.
type Type struct {
	// Name is the identifier the model passes as subagent_type ("explore").
	Name string
	// DisplayName is shown in panes ("Explore").
	DisplayName string
	// Description says what the type is for, in one line.
	Description string
	// SystemPrompt is the child's system prompt.
	SystemPrompt string
	// Tools lists the tool names the type may use, in order.
	Tools []string
	// Model is a model id, an alias, or InheritModel.
	Model string
	// MaxSteps bounds the child's model requests; 0 means the default.
	MaxSteps int
	// Timeout bounds the child's run; 0 means the default.
	Timeout time.Duration
	// BudgetTokens and BudgetCostUSD bound the child's tokens and cost
	// (the agent file's budget:); 0 means the default.
	BudgetTokens  int
	BudgetCostUSD float64
	// Color is an optional colour name or hex chosen by the file's author;
	// themes decide how to show it.
	Color string
	// Effort is the reasoning effort to request ("low", "medium", "high").
	Effort string
	// Capabilities the type needs from its model ("vision", "reasoning").
	Capabilities []string
	// Source is where the type comes from: "built-in" or a file path.
	Source string
	// DroppedTools lists the tools the definition asked for that baton
	// does not have (WebSearch, mcp__…); the type runs without them, as
	// Claude Code runs a file naming a tool it lacks, and the delegation
	// card and /agents say which were dropped.
	DroppedTools []string
	// WithheldTools are the tools OpenCode gives every agent unless its
	// file switches them off, which baton gives a sub-agent only when its
	// file asks (web_fetch): an OpenCode agent that never mentions one
	// relied on OpenCode's default. The card and /agents say so, and how
	// to grant it (WithheldNote).
	WithheldTools []string
	// Temperature and TopP are the sampling settings the file asks for
	// (OpenCode's temperature and top_p); nil leaves the model's default.
	Temperature *float64
	TopP        *float64
	// Permissions are the standing rules the file sets for the child's
	// tool calls (OpenCode's permission:), in Claude Code rule syntax.
	Permissions Rules
	// Hidden types are not offered to the model (OpenCode's hidden, or
	// mode: primary), though a prompt that names one may still use it.
	Hidden bool
	// Disabled types are neither offered nor found by Lookup; a disabled
	// file still overrides a type of the same name, which is how a person
	// switches a built-in off (OpenCode's disable).
	Disabled bool
	// SandboxNetwork is the agent file's sandbox.network: "on" lets the
	// type's commands use the network, "off" or "" (the default for
	// sub-agents) does not.
	SandboxNetwork string
	// Isolation is the agent file's isolation: "worktree" runs each child
	// of the type in a git worktree of its own, "shared" in the person's
	// tree; "" leaves it to the task call and [subagents] isolation.
	Isolation string
	// Runner is the agent file's runner: "local" runs each child of the
	// type in baton's process, "process" in a child process of its own,
	// "acp" as the agent ACP names; "" leaves it to [subagents] runner.
	Runner string
	// ACP is the agent program of an acp-runner type (nil for others).
	ACP *ACPAgent
	// Skills are the skills the agent file names (Claude Code's skills:),
	// given to each child of the type with their instructions loaded; nil
	// when the file names none, and the child sees the skills its tools
	// can use.
	Skills []string
	// Verify are the agent file's verify commands (verify:, one command
	// or a list), run in a worktree child's worktree when it finishes.
	Verify []string
	// Extra holds the fields of an agent file that baton does not know, so
	// a file written for another tool keeps them (they are not used).
	Extra map[string]any
}

// Warning is a problem found while loading agent files: a file that was
// skipped, a field that was ignored, or a name defined twice.
type Warning struct {
	// File is the agent file (or folder) concerned.
	File string
	// Line is the 1-based line in File; 0 when the problem has no line.
	Line int
	// Message says what is wrong and, for a skipped file, says so.
	Message string
}

// String formats the warning the way compilers do, so editors and people
// can jump to it: "file:line: message".
func (w Warning) String() string {
	if w.Line <= 0 {
		return fmt.Sprintf("%s: %s", w.File, w.Message)
	}
	return fmt.Sprintf("%s:%d: %s", w.File, w.Line, w.Message)
}

// Error lets ParseFile return the reason a file cannot be used as an
// error that still carries its file and line.
func (w Warning) Error() string { return w.String() }
