package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/seed-e4e525a6/baton/engine/config"
	"github.com/spf13/pflag"
)

// The input formats of headless mode: a prompt from -p, or Claude Code's
// stream of JSON lines on stdin (user messages and control requests).
const (
	inputText       = "text"
	inputStreamJSON = "stream-json"
)

// Claude Code's permission modes, as --permission-mode names them.
const (
	permDefault = "default"
	permDontAsk = "dontAsk"
	permEdits   = "acceptEdits"
	permBypass  = "bypassPermissions"
)

// claudeFlags are the flags of Claude Code's command line that baton
// accepts, so scripts written for `claude -p` and the Claude Agent SDK,
// which starts its executable with them, run baton unchanged.
type claudeFlags struct {
	inputFormat string
	// verbose makes --output-format json print every message as an
	// array, as Claude Code does; the other formats already say it all.
	verbose bool
	// settingSources is --setting-sources: which of Claude Code's
	// settings files are read (nil: all).
	settingSources []string
	// permissionMode is --permission-mode ("" when not given).
	permissionMode string
	// allowedTools and disallowedTools are rules in Claude Code's names.
	allowedTools, disallowedTools []string
	// systemPrompt replaces the main agent's prompt; appendSystemPrompt
	// is added to it.
	systemPrompt, appendSystemPrompt *string
	// partial is --include-partial-messages: stream_event messages carry
	// the text as it streams.
	partial bool
	// strictMCP is --strict-mcp-config: only --mcp-config's servers.
	strictMCP bool
	// debugFile is --debug-file, where the debug log goes.
	debugFile string
	// noPersistence is --no-session-persistence: no transcript.
	noPersistence bool
	// askOverStdio is --permission-prompt-tool stdio: calls no rule
	// decides are asked about with can_use_tool control requests.
	askOverStdio bool
	// ignored names the flags given that have no effect in baton, for a
	// note.
	ignored []string
}

// claudeFlagSet declares Claude Code's flags; newFlagSet adds them to
// baton's and --help lists them apart.
func claudeFlagSet() *pflag.FlagSet {
	fs := pflag.NewFlagSet("claude", pflag.ContinueOnError)
	fs.SortFlags = false
	fs.String("input-format", inputText, "headless input `FORMAT`: text (the -p prompt) or stream-json (user messages and control requests as JSON lines on stdin)")
	fs.Bool("verbose", false, "with --output-format json: print every message as a JSON array")
	fs.Int("max-turns", 0, "the same as --max-steps `N`")
	fs.String("permission-mode", "", "`MODE`: default or dontAsk (refuse what no rule allows), acceptEdits (also allow edit_file and write_file), bypassPermissions (--yolo)")
	fs.Bool("dangerously-skip-permissions", false, "the same as --yolo")
	fs.Bool("allow-dangerously-skip-permissions", false, "accepted; baton needs no leave to use --yolo")
	repeatedFlag(fs, "allowedTools", "`RULES` in Claude Code's names (\"Bash(git log:*) Edit\"), allowed like --allow")
	repeatedFlag(fs, "disallowedTools", "`RULES` in Claude Code's names, denied")
	fs.String("system-prompt", "", "replace the main agent's system `PROMPT`")
	fs.String("append-system-prompt", "", "add `TEXT` to the main agent's system prompt")
	fs.String("setting-sources", "", "which of Claude Code's settings files to read `SOURCES`: user, project, local (comma-separated; default all)")
	fs.Bool("include-partial-messages", false, "with --output-format stream-json: stream_event messages carry the text as it streams")
	fs.Bool("strict-mcp-config", false, "use only the MCP servers of --mcp-config")
	fs.String("debug-file", "", "write the debug log to `PATH` (as BATON_DEBUG)")
	fs.Bool("no-session-persistence", false, "record no transcript")
	// Accepted without effect: what they tune, baton does not have.
	fs.Int("max-thinking-tokens", 0, "`N`: accepted; baton sets no thinking budget")
	fs.String("thinking", "", "`MODE`: accepted; baton sets no thinking mode")
	fs.String("thinking-display", "", "`HOW`: accepted; baton streams reasoning as the provider sends it")
	fs.String("fallback-model", "", "`MODEL`: accepted; baton falls back as its config says")
	fs.Bool("debug", false, "accepted; use --debug-file or BATON_DEBUG for a debug log")
	fs.Bool("include-hook-events", false, "accepted; baton runs no hooks headless")
	fs.Bool("await-initialize", false, "accepted; with --input-format stream-json baton reads stdin in order")
	fs.String("permission-prompt-tool", "", "`TOOL`: stdio asks about calls no rule decides with can_use_tool control requests (with --input-format stream-json); otherwise headless refuses them")
	fs.String("effort", "", "`LEVEL`: accepted; baton uses each agent type's effort")
	fs.String("tools", "", "`TOOLS`: default (every tool) is accepted; a list of tools is refused")
	return fs
}

// refusedClaudeFlags are Claude Code flags baton has no equivalent of;
// one given is a usage error rather than silently ignored, since what it
// asks for (a budget, a schema, another agent) would not happen.
var refusedClaudeFlags = []string{"max-budget-usd", "json-schema", "agent", "add-dir", "session-id", "fork-session",
	"resume-session-at", "plugin-dir", "betas", "channels", "task-budget", "managed-settings", "permission-prompts"}

// addRefusedClaudeFlags declares them so the error names the reason.
func addRefusedClaudeFlags(fs *pflag.FlagSet) {
	for _, name := range refusedClaudeFlags {
		fs.String(name, "", "")
		_ = fs.MarkHidden(name)
	}
}

// ignoredClaudeFlags are accepted without effect; a note names them.
var ignoredClaudeFlags = []string{"max-thinking-tokens", "thinking", "thinking-display", "fallback-model", "debug",
	"include-hook-events", "effort"}

// readClaudeFlags fills v.claude (and the baton flags they stand for)
// from a parsed flag set.
func readClaudeFlags(fs *pflag.FlagSet, v *flagValues) error {
	for _, name := range refusedClaudeFlags {
		if fs.Changed(name) {
			return fmt.Errorf("--%s: baton has no equivalent of this Claude Code flag", name)
		}
	}
	if tools, _ := fs.GetString("tools"); fs.Changed("tools") && tools != "default" {
		return fmt.Errorf("--tools: baton takes only default (every tool); narrow with --disallowedTools, got %q", tools)
	}
	c := &v.claude
	c.inputFormat, _ = fs.GetString("input-format")
	c.verbose, _ = fs.GetBool("verbose")
	c.partial, _ = fs.GetBool("include-partial-messages")
	c.strictMCP, _ = fs.GetBool("strict-mcp-config")
	c.debugFile, _ = fs.GetString("debug-file")
	c.noPersistence, _ = fs.GetBool("no-session-persistence")
	if tool, _ := fs.GetString("permission-prompt-tool"); fs.Changed("permission-prompt-tool") {
		if tool != "stdio" {
			return fmt.Errorf("--permission-prompt-tool: baton asks over stdio only (stdio), got %q", tool)
		}
		c.askOverStdio = true
	}
	c.systemPrompt = changedString(fs, "system-prompt")
	c.appendSystemPrompt = changedString(fs, "append-system-prompt")
	for _, name := range ignoredClaudeFlags {
		if fs.Changed(name) {
			c.ignored = append(c.ignored, "--"+name)
		}
	}
	if fs.Changed("setting-sources") {
		value, _ := fs.GetString("setting-sources")
		sources, err := config.ParseSettingSources(value)
		if err != nil {
			return err
		}
		c.settingSources = sources
	}
	for _, name := range []string{"allowedTools", "disallowedTools"} {
		values := repeatedValues(fs, name)
		var rules []string
		for _, value := range values {
			rules = append(rules, splitClaudeRules(value)...)
		}
		if name == "allowedTools" {
			c.allowedTools = rules
		} else {
			c.disallowedTools = rules
		}
	}
	if fs.Changed("max-turns") {
		if fs.Changed("max-steps") {
			return errors.New("--max-turns and --max-steps are the same limit: give one")
		}
		n, _ := fs.GetInt("max-turns")
		if err := setMaxSteps(v, "--max-turns", n); err != nil {
			return err
		}
	}
	skip, _ := fs.GetBool("dangerously-skip-permissions")
	if skip {
		yolo := true
		v.yolo = &yolo
	}
	if fs.Changed("permission-mode") {
		mode, _ := fs.GetString("permission-mode")
		switch mode {
		case permDefault, permDontAsk, permEdits:
		case permBypass:
			yolo := true
			v.yolo = &yolo
		default:
			return fmt.Errorf("--permission-mode: expected default, dontAsk, acceptEdits or bypassPermissions, got %q (baton has no plan or auto mode headless)", mode)
		}
		c.permissionMode = mode
	}
	return nil
}

// checkClaudeCombos rejects Claude Code flags that cannot mean anything
// together with the rest.
func checkClaudeCombos(v flagValues) error {
	c := v.claude
	switch c.inputFormat {
	case inputText:
	case inputStreamJSON:
		if v.prompt != nil {
			return errors.New("--input-format stream-json reads the prompts from stdin: drop -p")
		}
		if v.format != formatStreamJSON && v.format != formatBatonStreamJSON {
			return errors.New("--input-format stream-json needs --output-format stream-json (or baton-stream-json)")
		}
	default:
		return fmt.Errorf("--input-format: expected text or stream-json, got %q", c.inputFormat)
	}
	if c.askOverStdio && c.inputFormat != inputStreamJSON {
		return errors.New("--permission-prompt-tool stdio asks over stdin and stdout: it needs --input-format stream-json")
	}
	if c.partial && v.format != formatStreamJSON {
		return errors.New("--include-partial-messages only applies to --output-format stream-json")
	}
	if c.systemPrompt != nil && strings.TrimSpace(*c.systemPrompt) == "" {
		return errors.New("--system-prompt: the prompt is empty")
	}
	return nil
}

// splitClaudeRules splits a tool list as Claude Code's command line
// takes it: at commas and blanks outside parentheses, so
// "Bash(git log:*) Edit,Read" is three rules.
func splitClaudeRules(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range s {
		switch {
		case r == '(':
			depth++
		case r == ')' && depth > 0:
			depth--
		case (r == ',' || r == ' ' || r == '\t' || r == '\n') && depth == 0:
			if part := strings.TrimSpace(s[start:i]); part != "" {
				out = append(out, part)
			}
			start = i + 1
		}
	}
	if part := strings.TrimSpace(s[start:]); part != "" {
		out = append(out, part)
	}
	return out
}
