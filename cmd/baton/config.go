package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/hooks"
	"github.com/seed-e4e525a6/baton/engine/mcp"
	"github.com/seed-e4e525a6/baton/engine/sandbox"
	"github.com/seed-e4e525a6/baton/engine/skills"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// defaultModel is the main agent's model when nothing names one: a model
// that calls tools reliably at a moderate price. Sub-agents default to it
// too unless subagent_model says otherwise.
const defaultModel = "gpt-4.1"

// Session housekeeping defaults (issue: sessions that survive).
const (
	defaultPruneAfterDays = 30
	// defaultAutoCompactAt is the context fill that compacts by itself.
	defaultAutoCompactAt = 0.85
	defaultCleanup       = "keep"
)

// source says which layer set a value. Only the base URL needs it: the
// API key is never sent to an endpoint that a project file chose.
type source int

const (
	fromDefault source = iota
	fromUser
	fromProject
	fromEnv
	fromFlag
)

// config is the merged configuration: flags > env > project > user >
// defaults. Zero limits mean "the engine's default".
type config struct {
	Model         string
	BaseURL       string
	baseURLFrom   source
	APIKey        string
	SubagentModel string
	Theme         string
	Yolo          bool
	Allow         []string
	Limits        engine.Limits
	Network       network
	SubagentAllow []string
	SubagentDeny  []string
	// Isolation is [subagents] isolation: "auto", "worktree" or "shared".
	Isolation string
	// Runner is [subagents] runner: "local" (the default) or "process".
	Runner string
	// NoWakeOnResult is [subagents] wake_on_result = false.
	NoWakeOnResult bool
	// Models holds price and context-window overrides by model id.
	Models map[string]modelPrice
	// ModelAliases is [models.aliases]: models agent files name, mapped
	// to models the endpoint serves.
	ModelAliases   map[string]string
	PruneAfterDays int
	Cleanup        string
	// AutoCompactAt is [context] auto_compact_at; Mouse is mouse.
	AutoCompactAt float64
	Mouse         bool
	// WebFetch is [web_fetch], from the user config only.
	WebFetch tools.WebFetchOptions
	// DebugLog is the BATON_DEBUG path; empty means no debug log.
	DebugLog string
	// notices are config files skipped, for the person.
	notices []string
	// Sandbox is the [sandbox] table, and --no-sandbox.
	Sandbox sandboxConfig
	// MCPUser and MCPProject are the [mcp.servers] of the user and the
	// project file; MCPTimeouts are [mcp] startup_timeout_s and
	// call_timeout_s.
	MCPUser, MCPProject []mcp.Server
	MCPTimeouts         mcpTimeouts
	// withheld are the project keys not applied (see narrowProject).
	withheld []withheldKey
	// Rules are the [permissions] of the config files and Claude Code's
	// settings, each marked with its source.
	Rules []event.PermissionRule
	// Notify is "bell", "title", "off", or "" for both bell and title.
	Notify string
	// SystemPrompt replaces the main agent's system prompt and
	// AppendSystemPrompt ends it (Claude Code's flags).
	SystemPrompt, AppendSystemPrompt string
	// AskOverStdio is --permission-prompt-tool stdio.
	AskOverStdio bool
	// Hooks are the hooks the session runs; withheldHooks a project's
	// that wait for the folder's trust.
	Hooks         []hooks.Hook
	withheldHooks []hooks.Hook
	// Skills are the skills found in the project's and the person's
	// skill folders.
	Skills *skills.Catalog
}

// modelPrice is a merged [models."<id>"] table; nil prices are unset.
type modelPrice struct {
	ContextWindow    int
	InputPerMillion  *float64
	OutputPerMillion *float64
}

// configSources are the inputs of loadConfig, passed explicitly so tests
// never read the real environment or home directory.
type configSources struct {
	flags     flagValues
	env       map[string]string
	workspace string
	// trusted says the person trusts the workspace, so its project file
	// may widen as well as narrow.
	trusted bool
}

// projectConfigName is the project file, relative to the workspace; it is
// also how messages name it.
var projectConfigName = filepath.Join(".baton", "config.toml")

// loadConfig reads the user and project files and layers env and flags
// over them. Every error names where the bad value came from.
func loadConfig(src configSources) (config, error) {
	cfg := config{Model: defaultModel, PruneAfterDays: defaultPruneAfterDays, Cleanup: defaultCleanup,
		AutoCompactAt: defaultAutoCompactAt, Mouse: true}
	userPath := userConfigPath(src.env)
	user, err := loadConfigFile(userPath, userPath, userScope)
	if err = cfg.skip(err); err != nil {
		return config{}, err
	}
	cfg.applyFile(user, fromUser)
	if err := cfg.applyMCP(user.MCP, fromUser, userPath); err != nil {
		return config{}, err
	}
	projectPath := filepath.Join(src.workspace, projectConfigName)
	project, err := loadConfigFile(projectPath, projectConfigName, projectScope)
	if err = cfg.skip(err); err != nil {
		return config{}, err
	}
	cfg.notices = append(cfg.notices, project.refused...)
	project, cfg.withheld = cfg.narrowProject(project, src.trusted)
	cfg.applyFile(project, fromProject)
	if err := cfg.applyMCP(project.MCP, fromProject, projectConfigName); err != nil {
		return config{}, err
	}
	if err := cfg.loadRules(src, user, project); err != nil {
		return config{}, err
	}
	if err := cfg.loadHooks(src, user, project); err != nil {
		return config{}, err
	}
	cfg.loadSkills(src)
	if err := cfg.applyEnv(src.env); err != nil {
		return config{}, err
	}
	cfg.applyFlags(src.flags)
	cfg.applyClaudeFlags(src.flags.claude, src.env["HOME"])
	return cfg, nil
}

// loadRules gathers the permission rules: the user's config and Claude
// Code settings, then the project's, narrowed unless the folder is
// trusted.
func (c *config) loadRules(src configSources, user, project fileConfig) error {
	home := src.env["HOME"]
	layers := []permissionLayer{{file: user.Permissions, source: event.SourceUser}}
	files := claudeSettingsFiles(home, src.workspace, src.flags.claude.settingSources)
	for _, f := range files[:1] {
		if err := c.addClaudeLayer(&layers, f, src.trusted, home); err != nil {
			return err
		}
	}
	layers = append(layers, c.openCodeLayers(openCodeDir(src.env), src.workspace, false, src.trusted)...)
	layers = append(layers, permissionLayer{file: project.Permissions, source: event.SourceProject, display: filepath.ToSlash(projectConfigName), narrowOnly: !src.trusted})
	for _, f := range files[1:] {
		if err := c.addClaudeLayer(&layers, f, src.trusted, home); err != nil {
			return err
		}
	}
	layers = append(layers, c.openCodeLayers("", src.workspace, true, src.trusted)...)
	rules, notices := collectRules(layers)
	c.Rules, c.notices = rules, append(c.notices, notices...)
	return nil
}

// addClaudeLayer reads one Claude Code settings file's permissions as a
// layer; a project's file adds only deny and ask until the folder is
// trusted.
func (c *config) addClaudeLayer(layers *[]permissionLayer, f claudeSettingsFile, trusted bool, home string) error {
	if f.path == "" {
		return nil
	}
	file, notices, err := readClaudeSettings(f.path, f.source, f.inside, home)
	if err != nil {
		// The repository's file never keeps baton from starting.
		notices = append(notices, err.Error()+"; ignored")
	}
	c.notices = append(c.notices, notices...)
	*layers = append(*layers, permissionLayer{file: file, source: f.source, narrowOnly: f.inside != "" && !trusted})
	return nil
}

// userConfigDir is baton's folder under the XDG config home, holding
// config.toml and agents/. A relative XDG_CONFIG_HOME is ignored, as the
// spec says; with no home either there is no user folder.
func userConfigDir(env map[string]string) string {
	if dir := env["XDG_CONFIG_HOME"]; filepath.IsAbs(dir) {
		return filepath.Join(dir, "baton")
	}
	if home := env["HOME"]; home != "" {
		return filepath.Join(home, ".config", "baton")
	}
	return ""
}

// userConfigPath is the user config file, or "" without a user folder.
func userConfigPath(env map[string]string) string {
	if dir := userConfigDir(env); dir != "" {
		return filepath.Join(dir, "config.toml")
	}
	return ""
}

// applyEnv layers the environment. Empty variables count as unset, the
// way shells make "unset" and "exported empty" hard to tell apart.
func (c *config) applyEnv(env map[string]string) error {
	if v := env["OPENAI_BASE_URL"]; v != "" {
		if err := checkBaseURL(v); err != nil {
			return fmt.Errorf("OPENAI_BASE_URL: expected an http(s) URL such as http://localhost:11434/v1, got %q", v)
		}
		c.BaseURL, c.baseURLFrom = v, fromEnv
	}
	if v := strings.TrimSpace(env["OPENAI_API_KEY"]); v != "" {
		c.APIKey = v
	}
	if v := strings.TrimSpace(env["BATON_MODEL"]); v != "" {
		c.Model = v
	}
	if v := strings.TrimSpace(env["BATON_SUBAGENT_MODEL"]); v != "" {
		c.SubagentModel = v
	}
	c.DebugLog = env["BATON_DEBUG"]
	return nil
}

// applyFlags layers the command line, the highest precedence.
func (c *config) applyFlags(f flagValues) {
	if f.model != nil {
		c.Model = *f.model
	}
	if f.baseURL != nil {
		c.BaseURL, c.baseURLFrom = *f.baseURL, fromFlag
	}
	if f.theme != nil {
		c.Theme = *f.theme
	}
	if f.maxSteps != nil {
		c.Limits.MaxSteps = *f.maxSteps
	}
	if f.childBudget != nil {
		f.childBudget.apply(&c.Limits)
	}
	if f.allow != nil {
		c.Allow = f.allow
	}
	if f.yolo != nil {
		c.Yolo = *f.yolo
	}
	if f.noSandbox {
		c.Sandbox.Mode, c.Sandbox.Reason = sandbox.Off, "--no-sandbox"
	}
}
