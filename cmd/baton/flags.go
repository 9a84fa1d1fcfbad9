package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/config"
	"github.com/seed-e4e525a6/baton/themes"
	"github.com/spf13/pflag"
)

// The output formats of headless mode.
const (
	formatText       = "text"
	formatJSON       = "json"
	formatStreamJSON = "stream-json"
	// The formats baton had before it spoke Claude Code's: its own events
	// one a line, as the TUI consumes them.
	formatBatonStreamJSON = "baton-stream-json"
)

// flagValues is the command line. Pointers are nil when the flag was not
// given, so an unset flag never hides the env or a config file.
type flagValues struct {
	model    *string
	baseURL  *string
	theme    *string
	maxSteps *int
	// childBudget is --child-budget (nil: not given).
	childBudget *config.ChildBudget
	allow       []string // nil when --allow was not given
	yolo        *bool    // --yolo=false overrides yolo = true in the user config
	prompt      *string  // -p; "-" means read stdin
	format      string
	// noWait is --no-wait: a headless run exits when its turn ends,
	// printing the ids of background sub-agents still running.
	noWait bool
	demo   bool
	// noSandbox is --no-sandbox: commands run unconfined.
	noSandbox bool
	version   bool
	help      bool
	// resume is --resume ID; cont is --continue; sessions is the
	// "baton sessions" subcommand.
	resume   *string
	cont     bool
	sessions bool
	// mcpConfig are the --mcp-config files (or inline JSON).
	mcpConfig []string
	// trust is --trust: apply this folder's project settings for this run
	// without recording it.
	trust bool
	// trustCmd is the "trust" or "untrust" subcommand, trustDir its
	// folder ("" = the current one) and list is trust --list.
	trustCmd string
	trustDir string
	list     bool
	// worktrees is --worktrees (headless: what becomes of a worktree
	// child's change); listWorktrees the "baton worktrees" subcommand.
	worktrees     string
	listWorktrees bool
	// all is --all: baton sessions lists every project's sessions.
	all bool
	// claude are the flags of Claude Code's command line baton takes.
	claude claudeFlags
	// acp is the "acp" subcommand: baton serves an editor over the Agent
	// Client Protocol on stdio.
	acp bool
}

// headless reports a run without the TUI: -p, or prompts on stdin.
func (v flagValues) headless() bool {
	return v.prompt != nil || v.claude.inputFormat == inputStreamJSON
}

// newFlagSet declares every flag once, for parsing and for --help:
// baton's own, then Claude Code's.
func newFlagSet() *pflag.FlagSet {
	fs := batonFlagSet()
	fs.AddFlagSet(claudeFlagSet())
	addRefusedClaudeFlags(fs)
	return fs
}

// batonFlagSet declares baton's own flags.
func batonFlagSet() *pflag.FlagSet {
	fs := pflag.NewFlagSet("baton", pflag.ContinueOnError)
	fs.SortFlags = false
	fs.StringP("print", "p", "", "run one turn headless with `PROMPT` and print the answer (- reads stdin)")
	fs.String("output-format", formatText, "headless output `FORMAT`: text (default); json or stream-json, Claude Code's; baton-stream-json, baton's own events")
	fs.Bool("no-wait", false, "headless: exit when the turn ends instead of waiting for background sub-agents (prints their ids)")
	fs.String("model", "", "`MODEL` of the main agent (default "+config.DefaultModel+")")
	fs.String("base-url", "", "`URL` of an OpenAI-compatible endpoint")
	repeatedFlag(fs, "allow", "`RULES` allowed without asking, comma-separated or repeated: tool names ("+strings.Join(config.ToolNames(), " ")+
		", mcp__SERVER__TOOL, mcp__SERVER__*) or scoped rules such as \"run_command(go test:*)\" or \"write_file(docs/**)\"")
	fs.Bool("yolo", false, "allow every tool and delegation (the blocklist and the sandbox still apply)")
	fs.Bool("no-sandbox", false, "run commands without the kernel sandbox (see [sandbox] in the config)")
	repeatedFlag(fs, "mcp-config", "load MCP servers from `FILE` (Claude Code's JSON form, or that JSON inline); repeatable")
	fs.Int("max-steps", 0, "step limit `N` of the main agent (default 50)")
	repeatedFlag(fs, "child-budget", "every sub-agent's `BUDGET`, such as tokens=40000,cost=0.2,steps=15,time=120 (any of them)")
	fs.String("theme", "", "colour theme `NAME`: "+strings.Join(themes.Names(), ", "))
	fs.BoolP("continue", "c", false, "reopen the last session of this folder")
	fs.String("resume", "", "reopen session `ID` (see baton sessions)")
	fs.Bool("trust", false, "apply this folder's project settings for this run (see baton trust)")
	fs.Bool("list", false, "with baton trust: list the trusted folders")
	fs.String("worktrees", child.FinishKeep, "headless and baton acp: `WHAT` becomes of a worktree sub-agent's change: apply (merge those that pass their verification, verify the merged result, apply all or none), apply-unverified, keep (default: commit it on a branch and print where) or discard")
	fs.Bool("all", false, "with baton sessions: list the sessions of every folder")
	fs.Bool("demo", false, "start the offline demo")
	fs.Bool("version", false, "print the version and exit")
	fs.BoolP("help", "h", false, "show this help")
	fs.SetOutput(io.Discard)
	return fs
}

// parseFlags reads the command line. Every error is a usage error.
func parseFlags(args []string) (flagValues, error) {
	fs := newFlagSet()
	if err := fs.Parse(args); err != nil {
		return flagValues{}, err
	}
	v, err := parseSubcommand(fs.Args())
	if err != nil {
		return flagValues{}, err
	}
	v.model = changedString(fs, "model")
	v.baseURL = changedString(fs, "base-url")
	v.theme = changedString(fs, "theme")
	v.prompt = changedString(fs, "print")
	v.format, _ = fs.GetString("output-format")
	v.worktrees, _ = fs.GetString("worktrees")
	if fs.Changed("yolo") {
		yolo, _ := fs.GetBool("yolo")
		v.yolo = &yolo
	}
	v.demo, _ = fs.GetBool("demo")
	v.noWait, _ = fs.GetBool("no-wait")
	v.noSandbox, _ = fs.GetBool("no-sandbox")
	v.trust, _ = fs.GetBool("trust")
	v.list, _ = fs.GetBool("list")
	v.all, _ = fs.GetBool("all")
	v.cont, _ = fs.GetBool("continue")
	v.resume = changedString(fs, "resume")
	v.mcpConfig = repeatedValues(fs, "mcp-config")
	v.version, _ = fs.GetBool("version")
	v.help, _ = fs.GetBool("help")
	if fs.Changed("max-steps") {
		n, _ := fs.GetInt("max-steps")
		if err := setMaxSteps(&v, "--max-steps", n); err != nil {
			return flagValues{}, err
		}
	}
	if fs.Changed("child-budget") {
		values := repeatedValues(fs, "child-budget")
		b, err := config.ParseChildBudget(values)
		if err != nil {
			return flagValues{}, err
		}
		v.childBudget = b
	}
	if fs.Changed("allow") {
		names := repeatedValues(fs, "allow")
		allow, err := config.ParseAllow(names)
		if err != nil {
			return flagValues{}, err
		}
		v.allow = allow
	}
	if err := readClaudeFlags(fs, &v); err != nil {
		return flagValues{}, err
	}
	return v, checkFlagCombos(fs, v)
}

// overrides is the command line's layer of the config.
func (v flagValues) overrides() config.Overrides {
	c := v.claude
	return config.Overrides{Model: v.model, BaseURL: v.baseURL, Theme: v.theme, MaxSteps: v.maxSteps, ChildBudget: v.childBudget,
		Allow: v.allow, Yolo: v.yolo, NoSandbox: v.noSandbox, MCPConfigs: v.mcpConfig,
		Claude: config.ClaudeOverrides{SettingSources: c.settingSources, AllowedTools: c.allowedTools, DisallowedTools: c.disallowedTools,
			AcceptEdits: c.permissionMode == permEdits, SystemPrompt: c.systemPrompt, AppendSystemPrompt: c.appendSystemPrompt,
			AskOverStdio: c.askOverStdio, StrictMCP: c.strictMCP, DebugFile: c.debugFile, Ignored: c.ignored}}
}

// checkTheme accepts the names themes.ByName resolves.
func checkTheme(name string) error {
	if _, ok := themes.ByName(name); !ok {
		return fmt.Errorf("unknown theme %q (known: %s)", name, strings.Join(themes.Names(), ", "))
	}
	return nil
}

// setMaxSteps checks the main agent's step limit given as flag.
func setMaxSteps(v *flagValues, flag string, n int) error {
	if n <= 0 {
		return fmt.Errorf("%s: expected a positive integer, got %d", flag, n)
	}
	if n > engine.MaxLimits.MaxSteps {
		return fmt.Errorf("%s: expected at most %d, got %d", flag, engine.MaxLimits.MaxSteps, n)
	}
	v.maxSteps = &n
	return nil
}

// changedString returns the flag's value when it was given.
func changedString(fs *pflag.FlagSet, name string) *string {
	if !fs.Changed(name) {
		return nil
	}
	s, _ := fs.GetString(name)
	return &s
}

// checkFlagCombos rejects values and combinations that cannot mean
// anything, rather than silently ignoring them.
func checkFlagCombos(fs *pflag.FlagSet, v flagValues) error {
	switch v.format {
	case formatText, formatJSON, formatStreamJSON, formatBatonStreamJSON:
	default:
		return fmt.Errorf("--output-format: expected text, json, stream-json or baton-stream-json, got %q", v.format)
	}
	if err := checkClaudeCombos(v); err != nil {
		return err
	}
	switch v.worktrees {
	case child.FinishApply, child.FinishApplyUnverified, child.FinishKeep, child.FinishDiscard:
	default:
		return fmt.Errorf("--worktrees: expected apply, apply-unverified, keep or discard, got %q", v.worktrees)
	}
	if fs.Changed("worktrees") && !v.headless() && !v.acp {
		return errors.New("--worktrees only applies to headless runs (-p PROMPT) and baton acp; the TUI asks you to review each change")
	}
	if v.acp && (v.prompt != nil || v.cont || v.resume != nil || v.demo) {
		return errors.New("baton acp takes no -p, --continue, --resume or --demo: the editor starts and loads sessions")
	}
	if fs.Changed("output-format") && !v.headless() {
		return errors.New("--output-format only applies to headless runs (-p PROMPT)")
	}
	if v.noWait && !v.headless() {
		return errors.New("--no-wait only applies to headless runs (-p PROMPT)")
	}
	if v.prompt != nil && strings.TrimSpace(*v.prompt) == "" {
		return errors.New("-p: the prompt is empty")
	}
	if v.baseURL != nil {
		if err := config.CheckBaseURL(*v.baseURL); err != nil {
			return fmt.Errorf("--base-url: expected an http(s) URL such as http://localhost:11434/v1, got %q", *v.baseURL)
		}
	}
	if v.theme != nil {
		if err := checkTheme(*v.theme); err != nil {
			return fmt.Errorf("--theme: %w", err)
		}
	}
	if v.trustCmd != "" && (v.headless() || v.cont || v.resume != nil || v.demo) {
		return fmt.Errorf("baton %s takes no run flags (-p, --continue, --resume, --demo)", v.trustCmd)
	}
	if v.list && (v.trustCmd != "trust" || v.trustDir != "") {
		return errors.New("--list only applies to baton trust, without a folder")
	}
	if v.all && !v.sessions {
		return errors.New("--all only applies to baton sessions")
	}
	if v.cont && v.resume != nil {
		return errors.New("--continue and --resume cannot be combined: pick one session")
	}
	if v.resume != nil && strings.TrimSpace(*v.resume) == "" {
		return errors.New("--resume: expected a session id (see baton sessions)")
	}
	if v.model != nil && strings.TrimSpace(*v.model) == "" {
		return errors.New("--model: the model name is empty")
	}
	return nil
}
