package config

import (
	"time"

	"github.com/seed-e4e525a6/baton/engine/permission"
)

// applyFile layers one config file over c: every key the file sets wins
// over the layers below; keys it leaves out keep their value.
func (c *Config) applyFile(f fileConfig, from source) {
	setString(&c.Model, f.Model)
	if f.BaseURL != nil {
		c.BaseURL, c.baseURLFrom = string(*f.BaseURL), from
	}
	setString(&c.APIKey, f.APIKey)
	setString(&c.SubagentModel, f.SubagentModel)
	if f.Theme != nil {
		c.Theme = string(*f.Theme)
	}
	setCount(&c.Limits.MaxSteps, f.MaxSteps)
	if f.Yolo != nil {
		c.Yolo = bool(*f.Yolo)
	}
	if f.Allow != nil {
		c.Allow = []string(*f.Allow)
	}
	if f.Notify != nil {
		c.Notify = string(*f.Notify)
	}
	c.applyLimits(f.Limits)
	c.applyNetwork(f.Network)
	c.applyMCPTimeouts(f.MCP)
	if f.Subagents.Allow != nil {
		c.SubagentAllow = []string(*f.Subagents.Allow)
	}
	if f.Subagents.Deny != nil {
		c.SubagentDeny = []string(*f.Subagents.Deny)
	}
	if f.Subagents.Isolation != nil {
		c.Isolation = string(*f.Subagents.Isolation)
	}
	if f.Subagents.Verify != nil {
		c.Verify = []string(*f.Subagents.Verify)
	}
	if f.Subagents.Runner != nil {
		c.Runner = string(*f.Subagents.Runner)
	}
	// Where children's containers run and what they hold is the
	// person's to say, never a repository's.
	if from != fromProject {
		c.applyContainer(f.Runners.Container)
		c.applyKubernetes(f.Runners.Kubernetes)
	}
	// A repository may keep results waiting (fewer turns nobody asked
	// for), never start turns its person turned off.
	if w := f.Subagents.WakeOnResult; w != nil && (from != fromProject || !bool(*w)) {
		c.NoWakeOnResult = !bool(*w)
	}
	for id, m := range f.Models {
		c.applyModel(id, m)
	}
	for from, to := range f.aliases {
		if c.ModelAliases == nil {
			c.ModelAliases = map[string]string{}
		}
		c.ModelAliases[from] = to
	}
	c.Sandbox.apply(f.Sandbox, from)
	c.applyWebFetch(f.WebFetch)
	if f.Context.AutoCompactAt != nil {
		c.AutoCompactAt = float64(*f.Context.AutoCompactAt)
	}
	if f.Mouse != nil {
		c.Mouse = bool(*f.Mouse)
	}
	setCount(&c.PruneAfterDays, f.Sessions.PruneAfterDays)
	if f.Sessions.Cleanup != nil {
		c.Cleanup = string(*f.Sessions.Cleanup)
	}
}

// applyLimits layers the [limits] table.
func (c *Config) applyLimits(l limitsFile) {
	lim := &c.Limits
	setCount(&lim.ChildStepsReadOnly, l.ChildStepsReadOnly)
	setCount(&lim.ChildStepsWrite, l.ChildStepsWrite)
	setCount(&lim.ToolOutputChars, l.ToolOutputChars)
	setCount(&lim.ResultChars, l.ResultChars)
	setCount(&lim.MaxConcurrent, l.MaxConcurrent)
	setCount(&lim.MaxDepth, l.MaxDepth)
	setCount(&lim.ReplyMaxBytes, l.ReplyMaxBytes)
	setCount(&lim.ContextFileBytes, l.ContextFileBytes)
	setCount(&lim.WakeTurns, l.WakeTurnsPerPrompt)
	setCount(&lim.BackgroundPerPrompt, l.BackgroundPerPrompt)
	if l.ChildTimeoutS != nil {
		lim.ChildTimeout = seconds(*l.ChildTimeoutS)
	}
	setCount(&lim.ChildBudget.Tokens, l.ChildTokens)
	setCount(&lim.TurnBudget.Tokens, l.TurnTokens)
	if l.ChildCostUSD != nil {
		lim.ChildBudget.CostUSD = float64(*l.ChildCostUSD)
	}
	if l.TurnCostUSD != nil {
		lim.TurnBudget.CostUSD = float64(*l.TurnCostUSD)
	}
	if l.CommandTimeoutS != nil {
		lim.CommandTimeout = seconds(*l.CommandTimeoutS)
	}
	if l.VerifyTimeoutS != nil {
		lim.VerifyTimeout = seconds(*l.VerifyTimeoutS)
	}
}

// applyModel merges one [models."<id>"] table field by field, so a project
// may set a price while the user file keeps the context window.
func (c *Config) applyModel(id string, m modelPriceFile) {
	if c.Models == nil {
		c.Models = map[string]ModelPrice{}
	}
	merged := c.Models[id]
	setCount(&merged.ContextWindow, m.ContextWindow)
	if m.InputPerMillion != nil {
		v := float64(*m.InputPerMillion)
		merged.InputPerMillion = &v
	}
	if m.OutputPerMillion != nil {
		v := float64(*m.OutputPerMillion)
		merged.OutputPerMillion = &v
	}
	if m.Images != nil {
		v := bool(*m.Images)
		merged.Images = &v
	}
	c.Models[id] = merged
}

// setString, setCount and seconds copy a value the file set.
func setString(dst *string, v *text) {
	if v != nil {
		*dst = string(*v)
	}
}

func setCount(dst *int, v *count) {
	if v != nil {
		*dst = int(*v)
	}
}

func seconds(n count) time.Duration { return time.Duration(n) * time.Second }

// Mode is the engine permission mode for this run: --yolo (or yolo in the
// user config) wins; otherwise the TUI asks, headless asks over stdio with
// --permission-prompt-tool stdio and else decides by Allow.
func (c Config) Mode(headless bool) permission.Mode {
	switch {
	case c.Yolo:
		return permission.Yolo
	case headless && c.AskOverStdio:
		return permission.Ask
	case headless:
		return permission.Headless
	default:
		return permission.Ask
	}
}
