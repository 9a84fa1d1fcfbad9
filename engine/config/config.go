// Package config reads baton's configuration: the person's file, the
// project's .baton/config.toml, Claude Code's settings, the environment
// and the command line, layered in that order (flags win), each value
// checked as it is read and every error naming the file and key. A
// project file travels with a repository, so it narrows unless the folder
// is trusted, never keeps baton from starting, and what it may not set is
// withheld with a notice. Every front end (TUI, headless, ACP) loads
// through Load, so all share one policy.
package config

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/child/container"
	"github.com/seed-e4e525a6/baton/engine/child/kube"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/hooks"
	"github.com/seed-e4e525a6/baton/engine/mcp"
	"github.com/seed-e4e525a6/baton/engine/sandbox"
	"github.com/seed-e4e525a6/baton/engine/skills"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// DefaultModel is the main agent's model when nothing names one: a model
// that calls tools reliably at a moderate price. Sub-agents default to it
// too unless subagent_model says otherwise.
const DefaultModel = "gpt-4.1"

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

// Config is the merged configuration: flags > env > project > user >
// defaults. Zero limits mean "the engine's default".
type Config struct {
	Model         string
	BaseURL       string
	baseURLFrom   source
	APIKey        string
	SubagentModel string
	Theme         string
	Yolo          bool
	Allow         []string
	Limits        engine.Limits
	Network       Network
	SubagentAllow []string
	SubagentDeny  []string
	// Isolation is [subagents] isolation: "auto", "worktree" or "shared".
	Isolation string
	// Verify is [subagents] verify: the commands run on a worktree
	// child's change when it finishes.
	Verify []string
	// Runner is [subagents] runner: "local" (the default), "process",
	// "container" or "kubernetes".
	Runner string
	// Container is [runner.container]; its image may come from the
	// project's devcontainer file.
	Container container.Options
	// Kubernetes is [runner.kubernetes].
	Kubernetes kube.Options
	// RunnerMaxConcurrent is [runner.<name>] max_concurrent by runner.
	RunnerMaxConcurrent map[string]int
	// NoWakeOnResult is [subagents] wake_on_result = false.
	NoWakeOnResult bool
	// Models holds price and context-window overrides by model id.
	Models map[string]ModelPrice
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
	// Notices are for the person: files skipped, keys a project may not
	// set, rules that could not be read.
	Notices []string
	// Sandbox is the [sandbox] table, and --no-sandbox.
	Sandbox SandboxSettings
	// MCPUser and MCPProject are the [mcp.servers] of the user and the
	// project file; MCPTimeouts are [mcp] startup_timeout_s and
	// call_timeout_s.
	MCPUser, MCPProject []mcp.Server
	MCPTimeouts         MCPTimeouts
	// Withheld are the project keys not applied (see narrowProject).
	Withheld []WithheldKey
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
	// Hooks are the hooks the session runs; WithheldHooks a project's
	// that wait for the folder's trust.
	Hooks         []hooks.Hook
	WithheldHooks []hooks.Hook
	// Skills are the skills found in the project's and the person's
	// skill folders.
	Skills *skills.Catalog
	// AgentsUser and AgentsProject are the agent types of the [agents]
	// tables of the user's and the project's file; the project's load
	// as the folder's trust allows (agenttypes.LoadOptions).
	AgentsUser, AgentsProject []agenttypes.Type
}

// ModelPrice is a merged [models."<id>"] table; nil prices are unset.
type ModelPrice struct {
	ContextWindow    int
	InputPerMillion  *float64
	OutputPerMillion *float64
	// Images, when set, says whether the model takes images (MCP tools'
	// pictures are sent to it), whatever the catalogue says.
	Images *bool
}

// Sources are the inputs of Load, passed explicitly so tests never read
// the real environment or home directory.
type Sources struct {
	// Flags is the command line, the highest layer.
	Flags Overrides
	// Env is the process environment (HOME, XDG_*, OPENAI_*, BATON_*).
	Env       map[string]string
	Workspace string
	// Trusted says the person trusts the workspace, so its project file
	// may widen as well as narrow.
	Trusted bool
	// Themes are the theme names the front end draws; a file naming
	// another is refused (the user's) or has the key dropped (a
	// project's). Nil accepts any name.
	Themes []string
}

// Overrides are the settings the command line gives. Pointers are nil
// when the flag was not given, so an unset flag never hides the
// environment or a file.
type Overrides struct {
	Model, BaseURL, Theme *string
	MaxSteps              *int
	// ChildBudget is --child-budget (nil: not given).
	ChildBudget *ChildBudget
	// Allow is nil when --allow was not given; ParseAllow checks it.
	Allow []string
	// Yolo false (--yolo=false) overrides yolo = true in the user config.
	Yolo *bool
	// NoSandbox is --no-sandbox: commands run unconfined.
	NoSandbox bool
	// MCPConfigs are the --mcp-config files, or their JSON inline.
	MCPConfigs []string
	// Claude are Claude Code's flags that set what the config sets.
	Claude ClaudeOverrides
}

// ClaudeOverrides are the flags of Claude Code's command line that set
// what baton's config sets, so scripts written for `claude -p` run baton
// unchanged.
type ClaudeOverrides struct {
	// SettingSources is --setting-sources: which of Claude Code's
	// settings files are read (nil: all; see ParseSettingSources).
	SettingSources []string
	// AllowedTools and DisallowedTools are rules in Claude Code's names.
	AllowedTools, DisallowedTools []string
	// AcceptEdits is --permission-mode acceptEdits: edit_file and
	// write_file run unasked.
	AcceptEdits bool
	// SystemPrompt replaces the main agent's prompt; AppendSystemPrompt
	// is added to it.
	SystemPrompt, AppendSystemPrompt *string
	// AskOverStdio is --permission-prompt-tool stdio.
	AskOverStdio bool
	// StrictMCP is --strict-mcp-config: only --mcp-config's servers.
	StrictMCP bool
	// DebugFile is --debug-file, where the debug log goes.
	DebugFile string
	// Ignored names the flags given that have no effect in baton, for a
	// notice.
	Ignored []string
}

// ProjectFile is the project file, relative to the workspace; it is
// also how messages name it.
const ProjectFile = ".baton" + string(filepath.Separator) + "config.toml"

// Load reads the user and project files and layers env and flags
// over them. Every error names where the bad value came from.
func Load(src Sources) (Config, error) {
	cfg := Config{Model: DefaultModel, PruneAfterDays: defaultPruneAfterDays, Cleanup: defaultCleanup,
		AutoCompactAt: defaultAutoCompactAt, Mouse: true}
	userPath := UserPath(src.Env)
	user, err := loadConfigFile(userPath, userPath, userScope, src.Themes)
	if err = cfg.skip(err); err != nil {
		return Config{}, err
	}
	cfg.applyFile(user, fromUser)
	if err := cfg.applyMCP(user.MCP, fromUser, userPath); err != nil {
		return Config{}, err
	}
	if cfg.AgentsUser, err = cfg.readAgents(user.Agents, userPath, false); err != nil {
		return Config{}, err
	}
	projectPath := filepath.Join(src.Workspace, ProjectFile)
	project, err := loadConfigFile(projectPath, ProjectFile, projectScope, src.Themes)
	if err = cfg.skip(err); err != nil {
		return Config{}, err
	}
	cfg.Notices = append(cfg.Notices, project.refused...)
	project, cfg.Withheld = cfg.narrowProject(project, src.Trusted)
	cfg.applyFile(project, fromProject)
	if err := cfg.applyMCP(project.MCP, fromProject, ProjectFile); err != nil {
		return Config{}, err
	}
	cfg.AgentsProject, _ = cfg.readAgents(project.Agents, filepath.ToSlash(ProjectFile), true)
	if err := cfg.loadRules(src, user, project); err != nil {
		return Config{}, err
	}
	if err := cfg.loadHooks(src, user, project); err != nil {
		return Config{}, err
	}
	cfg.loadSkills(src)
	cfg.applyDevcontainer(src.Workspace, src.Trusted)
	if err := cfg.applyEnv(src.Env); err != nil {
		return Config{}, err
	}
	cfg.applyFlags(src.Flags)
	cfg.applyClaudeFlags(src.Flags.Claude, src.Env["HOME"])
	return cfg, nil
}

// loadRules gathers the permission rules: the user's config and Claude
// Code settings, then the project's, narrowed unless the folder is
// trusted.
func (c *Config) loadRules(src Sources, user, project fileConfig) error {
	home := src.Env["HOME"]
	layers := []permissionLayer{{file: user.Permissions, source: event.SourceUser}}
	files := claudeSettingsFiles(home, src.Workspace, src.Flags.Claude.SettingSources)
	for _, f := range files[:1] {
		if err := c.addClaudeLayer(&layers, f, src.Trusted, home); err != nil {
			return err
		}
	}
	layers = append(layers, c.openCodeLayers(openCodeDir(src.Env), src.Workspace, false, src.Trusted)...)
	layers = append(layers, permissionLayer{file: project.Permissions, source: event.SourceProject, display: filepath.ToSlash(ProjectFile), narrowOnly: !src.Trusted})
	for _, f := range files[1:] {
		if err := c.addClaudeLayer(&layers, f, src.Trusted, home); err != nil {
			return err
		}
	}
	layers = append(layers, c.openCodeLayers("", src.Workspace, true, src.Trusted)...)
	rules, notices := collectRules(layers)
	c.Rules, c.Notices = rules, append(c.Notices, notices...)
	return nil
}

// addClaudeLayer reads one Claude Code settings file's permissions as a
// layer; a project's file adds only deny and ask until the folder is
// trusted.
func (c *Config) addClaudeLayer(layers *[]permissionLayer, f claudeSettingsFile, trusted bool, home string) error {
	if f.path == "" {
		return nil
	}
	file, notices, err := readClaudeSettings(f.path, f.source, f.inside, home)
	if err != nil {
		// The repository's file never keeps baton from starting.
		notices = append(notices, err.Error()+"; ignored")
	}
	c.Notices = append(c.Notices, notices...)
	*layers = append(*layers, permissionLayer{file: file, source: f.source, narrowOnly: f.inside != "" && !trusted})
	return nil
}

// UserDir is baton's folder under the XDG config home, holding
// config.toml and agents/. A relative XDG_CONFIG_HOME is ignored, as the
// spec says; with no home either there is no user folder.
func UserDir(env map[string]string) string {
	if dir := env["XDG_CONFIG_HOME"]; filepath.IsAbs(dir) {
		return filepath.Join(dir, "baton")
	}
	if home := env["HOME"]; home != "" {
		return filepath.Join(home, ".config", "baton")
	}
	return ""
}

// UserPath is the user config file, or "" without a user folder.
func UserPath(env map[string]string) string {
	if dir := UserDir(env); dir != "" {
		return filepath.Join(dir, "config.toml")
	}
	return ""
}

// applyEnv layers the environment. Empty variables count as unset, the
// way shells make "unset" and "exported empty" hard to tell apart.
func (c *Config) applyEnv(env map[string]string) error {
	if v := env["OPENAI_BASE_URL"]; v != "" {
		if err := CheckBaseURL(v); err != nil {
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
func (c *Config) applyFlags(f Overrides) {
	if f.Model != nil {
		c.Model = *f.Model
	}
	if f.BaseURL != nil {
		c.BaseURL, c.baseURLFrom = *f.BaseURL, fromFlag
	}
	if f.Theme != nil {
		c.Theme = *f.Theme
	}
	if f.MaxSteps != nil {
		c.Limits.MaxSteps = *f.MaxSteps
	}
	if f.ChildBudget != nil {
		f.ChildBudget.apply(&c.Limits)
	}
	if f.Allow != nil {
		c.Allow = f.Allow
	}
	if f.Yolo != nil {
		c.Yolo = *f.Yolo
	}
	if f.NoSandbox {
		c.Sandbox.Mode, c.Sandbox.Reason = sandbox.Off, "--no-sandbox"
	}
}
