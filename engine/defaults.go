package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/llm"
	"github.com/seed-e4e525a6/baton/engine/sandbox"
)

// withDefaults fills what cfg leaves empty.
func withDefaults(cfg Config) (Config, error) {
	ws, err := absWorkspace(cfg.Workspace)
	if err != nil {
		return cfg, fmt.Errorf("new session: workspace: %w", err)
	}
	cfg.Workspace = ws
	if cfg.Catalog == nil {
		cfg.Catalog = llm.NewCatalog(nil)
	}
	if cfg.Types == nil {
		cfg.Types = agenttypes.NewRegistry(agenttypes.Builtins()...)
	}
	cfg.Limits = limitsWithDefaults(cfg.Limits)
	if cfg.Sandbox.Mode == "" {
		// Never unconfined by omission: the defaults for this workspace.
		cfg.Sandbox = sandbox.Settings{Env: processEnv()}.Policy(ws)
		cfg.Sandbox.Network = cfg.SandboxNetwork != "off"
	}
	if cfg.RetryDelays == nil {
		cfg.RetryDelays = defaultRetryDelays
	}
	cfg.RetryAfterMax = retryAfterMax(cfg.RetryAfterMax)
	if cfg.Gather == (llm.Gather{}) {
		cfg.Gather = agent.DefaultGather
	}
	if cfg.Runner == "" {
		cfg.Runner = child.RunnerLocal
	}
	return cfg, nil
}

// WithDefaults returns l with every zero limit replaced by the engine's
// default and every limit capped at its hard maximum: what a session
// would actually enforce. Config layers compare against it to tell a
// lowered limit from a raised one.
func (l Limits) WithDefaults() Limits { return limitsWithDefaults(l) }

// limitsWithDefaults replaces zero limits with the defaults and lowers
// those above MaxLimits.
func limitsWithDefaults(l Limits) Limits {
	d := defaultLimits
	pick := func(v, def int) int {
		if v > 0 {
			return v
		}
		return def
	}
	l.MaxSteps = pick(l.MaxSteps, d.MaxSteps)
	l.ChildStepsReadOnly = pick(l.ChildStepsReadOnly, d.ChildStepsReadOnly)
	l.ChildStepsWrite = pick(l.ChildStepsWrite, d.ChildStepsWrite)
	l.ToolOutputChars = pick(l.ToolOutputChars, d.ToolOutputChars)
	l.ResultChars = pick(l.ResultChars, d.ResultChars)
	l.MaxConcurrent = pick(l.MaxConcurrent, d.MaxConcurrent)
	l.MaxDepth = pick(l.MaxDepth, d.MaxDepth)
	l.ReplyMaxBytes = pick(l.ReplyMaxBytes, llm.DefaultReplyMaxBytes)
	l.ContextFileBytes = pick(l.ContextFileBytes, d.ContextFileBytes)
	l.WakeTurns = pick(l.WakeTurns, d.WakeTurns)
	l.BackgroundPerPrompt = pick(l.BackgroundPerPrompt, d.BackgroundPerPrompt)
	if l.ChildTimeout <= 0 {
		l.ChildTimeout = d.ChildTimeout
	}
	if l.CommandTimeout <= 0 {
		l.CommandTimeout = d.CommandTimeout
	}
	if l.VerifyTimeout <= 0 {
		l.VerifyTimeout = d.VerifyTimeout
	}
	return clampLimits(l)
}

// processEnv is the process environment as a map, which the sandbox's
// defaults are resolved from (HOME, TMPDIR, the XDG and toolchain
// folders, PATH).
func processEnv() map[string]string {
	env := map[string]string{}
	for _, kv := range os.Environ() {
		if name, value, ok := strings.Cut(kv, "="); ok {
			env[name] = value
		}
	}
	return env
}

// absWorkspace returns the workspace as an absolute path.
func absWorkspace(dir string) (string, error) {
	if dir == "" {
		dir = "."
	}
	return filepath.Abs(dir)
}

// defaultLimits are the limits used where Config leaves zeros.
var defaultLimits = Limits{
	MaxSteps: 50, ChildStepsReadOnly: 15, ChildStepsWrite: 30,
	ChildTimeout: 120 * time.Second, ToolOutputChars: 50000, ResultChars: 8000,
	MaxConcurrent: 8, MaxDepth: 1, CommandTimeout: 120 * time.Second,
	// Real context files reach tens of kilobytes (a 30 KB CLAUDE.md is
	// not rare); the cap only stops a repository flooding the context.
	ContextFileBytes: 256 << 10,
	// A few rounds of "a result came, look at it" per prompt; a loop of
	// results starting tasks whose results start tasks stops there.
	WakeTurns: 5, BackgroundPerPrompt: 10,
	VerifyTimeout: child.DefaultVerifyTimeout,
}
