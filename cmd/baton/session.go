package main

import (
	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/config"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm"
)

// sessionSetup is an engine.Config plus what the person should be told
// before the session starts (agent files skipped, a key withheld).
type sessionSetup struct {
	engine  engine.Config
	notices []string
	// typeWarnings are the agent-file problems, which /agents lists too.
	typeWarnings []string
	// commands are the custom slash commands a prompt may call.
	commands []agenttypes.Command
	// mcp runs the MCP servers (nil without any).
	mcp *mcpRun
	// notify is the notify key; saveRules writes /permissions save into
	// the user config.
	notify    string
	saveRules func([]event.PermissionRule) (string, error)
}

// newSessionSetup builds the engine configuration for a run in workspace.
func newSessionSetup(cfg config.Config, ep config.Endpoint, types *agenttypes.Registry, workspace string, env map[string]string, headless bool) sessionSetup {
	var (
		commands        []agenttypes.Command
		commandWarnings []agenttypes.Warning
	)
	// A project's commands are prompts, not permissions: every call they
	// lead to is approved as usual, so trust does not gate them.
	commands, commandWarnings = agenttypes.LoadCommands(agenttypes.LoadOptions{
		ProjectDir: workspace, UserConfigDir: config.UserDir(env), HomeDir: env["HOME"],
	})
	notices := append([]string(nil), ep.Notices...)
	var warnings []string
	for _, w := range types.Warnings() {
		warnings = append(warnings, w.String())
	}
	if headless { // no /agents to read them in: each is printed
		notices = append(notices, warnings...)
	} else if n := agentFilesNotice(types.Warnings(), types.All()); n != "" {
		notices = append(notices, n)
	}
	for _, w := range commandWarnings {
		notices = append(notices, w.String())
	}
	endpoint := llm.Config{APIKey: ep.APIKey, BaseURL: ep.BaseURL, Timeouts: cfg.Network.Timeouts}
	notices = append(notices, config.SkillNotices(cfg.Skills, headless)...)
	return sessionSetup{
		engine: engine.Config{
			Client:        llm.NewClient(endpoint),
			Endpoint:      endpoint,
			Catalog:       llm.NewCatalog(catalogOverrides(cfg.Models)),
			Model:         cfg.Model,
			SubagentModel: cfg.SubagentModel,
			// SystemPrompt and AppendSystemPrompt are Claude Code's flags.
			SystemPrompt:       cfg.SystemPrompt,
			AppendSystemPrompt: cfg.AppendSystemPrompt,
			ModelAliases:       cfg.ModelAliases,
			Workspace:          workspace,
			Types:              types,
			Mode:               cfg.Mode(headless),
			Allow:              cfg.Allow,
			Rules:              cfg.Rules,
			SubagentAllow:      cfg.SubagentAllow,
			SubagentDeny:       cfg.SubagentDeny,
			// NoWakeOnResult keeps background results for the next prompt.
			NoWakeOnResult: cfg.NoWakeOnResult,
			Limits:         cfg.Limits,
			RetryAfterMax:  cfg.Network.RetryAfterMax,
			Sandbox:        cfg.Sandbox.Policy(env, workspace),
			// SandboxNetwork decides the sub-agents' network.
			SandboxNetwork:      cfg.Sandbox.Network,
			WebFetch:            cfg.WebFetch,
			Worktrees:           child.WorktreeConfig{Isolation: cfg.Isolation, Verify: cfg.Verify, Root: child.DefaultWorktreeRoot(func(k string) string { return env[k] })},
			Runner:              cfg.Runner,
			Container:           cfg.Container,
			Kubernetes:          cfg.Kubernetes,
			RunnerMaxConcurrent: cfg.RunnerMaxConcurrent,
			AutoCompactAt:       cfg.AutoCompactAt,
			Skills:              cfg.Skills,
			Hooks:               cfg.Hooks,
			HookEnv:             config.HookEnv(env),
		},
		notices:      notices,
		typeWarnings: warnings,
		commands:     commands,
		notify:       cfg.Notify,
		saveRules: func(list []event.PermissionRule) (string, error) {
			path := config.UserPath(env)
			return path, config.SaveRules(path, list)
		},
	}
}

// catalogOverrides turns [models."<id>"] tables into catalogue entries.
// The catalogue replaces an entry whole, so each override starts from what
// the embedded catalogue knows and changes only the fields the config
// sets: overriding a context window keeps the known price.
func catalogOverrides(models map[string]config.ModelPrice) map[string]llm.ModelInfo {
	if len(models) == 0 {
		return nil
	}
	known := llm.NewCatalog(nil)
	out := make(map[string]llm.ModelInfo, len(models))
	for id, m := range models {
		info, _ := known.Lookup(id)
		info.ID = id
		if m.ContextWindow > 0 {
			info.ContextWindow = int64(m.ContextWindow)
		}
		if m.InputPerMillion != nil || m.OutputPerMillion != nil {
			// A price written in config is known even when zero: a local
			// model really is free.
			info.PriceKnown = true
			if m.InputPerMillion != nil {
				info.InputPerMillion = *m.InputPerMillion
			}
			if m.OutputPerMillion != nil {
				info.OutputPerMillion = *m.OutputPerMillion
			}
		}
		if m.Images != nil {
			info.SupportsImages = *m.Images
		}
		out[id] = info
	}
	return out
}
