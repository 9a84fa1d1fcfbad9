package engine

import (
	"time"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/child/container"
	"github.com/seed-e4e525a6/baton/engine/child/kube"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/hooks"
	"github.com/seed-e4e525a6/baton/engine/llm"
	"github.com/seed-e4e525a6/baton/engine/permission"
	"github.com/seed-e4e525a6/baton/engine/sandbox"
	"github.com/seed-e4e525a6/baton/engine/skills"
	"github.com/seed-e4e525a6/baton/engine/tools"
	"github.com/seed-e4e525a6/baton/engine/transcript"
)

// Limits bound sub-agents. Zero fields take the defaults.
type Limits struct {
	// MaxSteps is the step limit of the main agent (default 50).
	MaxSteps int
	// ChildStepsReadOnly is the step limit of read-only types (default 15).
	ChildStepsReadOnly int
	// ChildStepsWrite is the step limit of types that can write (default 30).
	ChildStepsWrite int
	// ChildTimeout bounds a child's run (default 120 s).
	ChildTimeout time.Duration
	// ChildBudget bounds a child's tokens and cost ([limits] child_tokens,
	// child_cost_usd; zero: unbounded).
	ChildBudget event.Budget
	// TurnBudget bounds the main agent's turn ([limits] turn_tokens,
	// turn_cost_usd; zero: unbounded).
	TurnBudget event.Budget
	// ToolOutputChars bounds one tool result (default 50,000).
	ToolOutputChars int
	// ResultChars bounds the text a child returns to its parent (default 8,000).
	ResultChars int
	// MaxConcurrent is how many children run at once (default 8).
	MaxConcurrent int
	// MaxDepth is how deep delegation may nest (default 1: children never
	// get the task tool).
	MaxDepth int
	// CommandTimeout bounds one run_command (default 120 s).
	CommandTimeout time.Duration
	// ReplyMaxBytes caps one model reply (default 4 MiB): an endless
	// stream is cut there and the turn fails with what came so far.
	ReplyMaxBytes int
	// ContextFileBytes caps an AGENTS.md or CLAUDE.md taken into a prompt
	// (default 256 KiB); a larger file is cut there, and the cut said.
	ContextFileBytes int
	// WakeTurns bounds the turns background results start on their own
	// after one prompt of the person (default 5); later results wait for
	// the next prompt. A model answering every result with another
	// background task would otherwise never stop.
	WakeTurns int
	// BackgroundPerPrompt bounds the sub-agents the main agent sends to
	// the background after one prompt of the person (default 10); a task
	// call asking for more gets an error back.
	BackgroundPerPrompt int
	// VerifyTimeout bounds a verify run, all its commands together
	// (default 5 minutes).
	VerifyTimeout time.Duration
}

// Config is everything a session needs; cmd builds it from flags, env and
// config files.
type Config struct {
	// Client talks to the OpenAI-compatible endpoint.
	Client llm.Client
	// Endpoint is the same endpoint as configuration, key included:
	// what a child placed in a process of its own builds its client
	// from. Without it the process runner is not offered.
	Endpoint llm.Config
	// Catalog gives prices, context windows and capabilities of models.
	Catalog *llm.Catalog
	// Model is the main agent's model.
	Model string
	// SubagentModel is the default model of children ("" = Model).
	SubagentModel string
	// ModelAliases map a model an agent file names ("sonnet") to one the
	// endpoint serves; they apply only when the endpoint does not serve
	// the name as written.
	ModelAliases map[string]string
	// Workspace is the folder every path must stay inside.
	Workspace string
	// Types is the registry of agent types offered through the task tool.
	Types *agenttypes.Registry
	// Mode decides how approvals are answered; Allow lists rules (tool
	// names such as "task", or scoped rules such as
	// "run_command(go test:*)") that run without asking (--allow).
	Mode  permission.Mode
	Allow []string
	// Rules are the standing permission rules from config files, each with
	// its kind and source; deny beats ask beats allow.
	Rules []event.PermissionRule
	// SubagentAllow and SubagentDeny filter every child's tools on top of
	// its type (deny wins; an empty allow list means no filter).
	SubagentAllow []string
	SubagentDeny  []string
	// Limits bounds runs; zero fields take defaults.
	Limits Limits
	// SystemPrompt, when set, replaces the main agent's built-in prompt.
	SystemPrompt string
	// AppendSystemPrompt, when set, ends the main agent's system prompt
	// (--append-system-prompt).
	AppendSystemPrompt string
	// Transcript, when set, receives the session's records. A folder that
	// already holds a conversation is resumed: the model gets the same
	// history and History returns what to draw.
	Transcript *transcript.Dir
	// TrashChildTranscripts moves each child's transcript to the trash
	// when the parent's turn ends (cleanup = "delete").
	TrashChildTranscripts bool
	// NoWakeOnResult keeps a background child's result, when no turn
	// runs, until the person's next prompt instead of starting a turn of
	// its own ([subagents] wake_on_result = false).
	NoWakeOnResult bool
	// Version is the program's version, written into new transcripts.
	Version string
	// LazyModelList asks for the endpoint's model list only when it is
	// first needed (a child's file names a model, the /model picker)
	// rather than as the session starts: a headless turn seldom needs it.
	LazyModelList bool
	// Running, when set, is told how many children run at once each time
	// that changes, from the goroutine of the child that starts or ends
	// (cmd sizes the process's parallelism by it).
	Running func(children int)
	// Sandbox is the main agent's command sandbox; zero takes the defaults
	// for the workspace. Sub-agents get it with the network off unless
	// their type, or SandboxNetwork "on", allows it.
	Sandbox sandbox.Policy
	// SandboxNetwork is [sandbox] network: "on" gives every sub-agent the
	// network, "off" takes it from every agent, "" keeps the defaults.
	SandboxNetwork string
	// WebFetch configures web_fetch ([web_fetch] in the user config).
	WebFetch tools.WebFetchOptions
	// MCP, when set, offers the tools of MCP servers: all of them to the
	// main agent, and to a child those its type lists.
	MCP MCPSource
	// Worktrees says when children that write get git worktrees of their
	// own and what becomes of their changes.
	Worktrees child.WorktreeConfig
	// Runner is [subagents] runner, the runner that places children
	// whose agent file names none: child.RunnerLocal (the default) or
	// child.RunnerProcess, child.RunnerContainer, child.RunnerKubernetes.
	Runner string
	// Container is [runner.container]: the image and limits of children
	// placed in containers (no image: the container runner is not
	// offered).
	Container container.Options
	// Kubernetes is [runner.kubernetes]: the cluster, image and limits
	// of children placed in Jobs (no image: the runner is not offered).
	Kubernetes kube.Options
	// RunnerMaxConcurrent is how many children of one depth each runner
	// runs at once ([runner.<name>] max_concurrent); a runner not named
	// takes Limits.MaxConcurrent.
	RunnerMaxConcurrent map[string]int
	// RetryDelays are the pauses before retrying a request refused with
	// 429 or a 5xx, or timed out; nil takes the defaults, an empty slice
	// never retries. A Retry-After from the endpoint replaces the pause.
	RetryDelays []time.Duration
	// RetryAfterMax is the longest Retry-After waited for (default 60 s,
	// at most MaxRetryAfter); a longer one fails the request at once.
	RetryAfterMax time.Duration
	// Gather is how a fast stream gathers between reads, and so how late
	// its text may be shown; the zero value takes agent.DefaultGather.
	// The TUI gathers for a frame from the start: it draws no more often.
	Gather llm.Gather
	// Editor, when baton serves an editor (ACP), reads and writes the
	// workspace's files and runs commands in its terminal, for the main
	// agent and the children that share its tree (see tools.Editor).
	Editor tools.Editor
	// AutoCompactAt is [context] auto_compact_at: when the main agent's
	// last request filled more than this share of the model's context
	// window, the history is summarised before the next turn (announced).
	// 0 never compacts by itself; children never compact.
	AutoCompactAt float64
	// Skills are the skills agents may load through the skill tool and
	// agent files may name (nil: none).
	Skills *skills.Catalog
	// Hooks are the hook commands the session runs: the person's, and a
	// trusted project's. HookEnv is the environment they start from (nil:
	// baton's own, less its secrets).
	Hooks   []hooks.Hook
	HookEnv []string
}

// requestPolicy is how every agent of a session sends model requests
// (cfg after withDefaults).
func (c Config) requestPolicy() agent.RequestPolicy {
	return agent.RequestPolicy{RetryDelays: c.RetryDelays, RetryAfterMax: c.RetryAfterMax, ReplyMaxBytes: c.Limits.ReplyMaxBytes, Gather: c.Gather}
}
