package main

import (
	"fmt"
	"strings"

	"github.com/seed-e4e525a6/baton/engine/config"
	"github.com/spf13/pflag"
)

// usage is the --help text: the two ways to run, flags, environment,
// config files and exit codes, so nobody needs the README to start.
func usage() string {
	return `baton: a terminal coding agent that delegates sub-tasks to parallel sub-agents

Usage:
  baton [flags]              start the full-screen TUI in the current folder
  baton -p PROMPT [flags]    run one turn headless and print the answer
  baton sessions [--all]     list this folder's sessions, or every folder's (resume one with --resume ID)
  baton trust [DIR]          trust a folder's project settings and agent files (default: this folder)
  baton untrust [DIR]        stop trusting it; baton trust --list shows the trusted folders
  baton worktrees            list the sub-agent worktrees kept for this repository
  baton acp [flags]          serve an editor (Zed, JetBrains, Neovim…) over the Agent Client Protocol on stdio

Flags:
` + flagHelp(batonFlagSet()) + `
Claude Code's flags, for scripts written for claude -p and the Claude Agent SDK
(--output-format json and stream-json print Claude Code's messages):
` + flagHelp(claudeFlagSet()) + `
Environment:
  OPENAI_API_KEY        API key of the endpoint
  OPENAI_BASE_URL       any OpenAI-compatible endpoint (OpenRouter, Ollama, vLLM, LM Studio…)
  BATON_MODEL           model of the main agent (default ` + config.DefaultModel + `)
  BATON_SUBAGENT_MODEL  default model of sub-agents (default: the main model)
  BATON_DEBUG           path of a debug log file
  BATON_CPUPROFILE      path of a CPU profile of the run (go tool pprof)

Config files (TOML): user $XDG_CONFIG_HOME/baton/config.toml (default
~/.config/baton/config.toml) and project .baton/config.toml.
Precedence: flags > environment > project > user > defaults. Until you trust a
folder, its project files may only narrow (deny tools, lower limits, pick a theme).
Commands run in a kernel sandbox: [sandbox] mode = "workspace-write" (default),
"read-only" or "off" (user config only), writable, readable, network = "on"|"off".
Sub-agents that write at the same time get git worktrees: [subagents] isolation =
"auto" (default), "worktree" or "shared".

Exit codes: 0 success, 1 run failed, 2 usage or configuration error, 130 interrupted.
`
}

// flagHelp lists the flags in two aligned columns. pflag's own listing
// marks every boolean "[=true|false]", which reads as if it took a value.
func flagHelp(fs *pflag.FlagSet) string {
	var names, texts []string
	width := 0
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		name := "    --" + f.Name
		if f.Shorthand != "" {
			name = "-" + f.Shorthand + ", --" + f.Name
		}
		varname, text := pflag.UnquoteUsage(f)
		if f.Value.Type() != "bool" {
			name += " " + varname
		}
		names, texts = append(names, name), append(texts, text)
		width = max(width, len(name))
	})
	var b strings.Builder
	for i, name := range names {
		fmt.Fprintf(&b, "  %-*s  %s\n", width, name, texts[i])
	}
	return b.String()
}
