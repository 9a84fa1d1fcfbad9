package agenttypes

import (
	"slices"
	"testing"
)

// TestCorpusOpenCode reads real OpenCode agent files the way OpenCode
// does: the name from the file, mode, a tools map on top of every tool,
// permission as the child's rules (a tool denied outright is gone, an
// allowed one is there), provider/model ids, temperature, steps and the
// provider options such as reasoningEffort.
func TestCorpusOpenCode(t *testing.T) {
	readOnly := []string{"read_file", "list_files", "find_files", "grep", "todo_write"}
	noEdits := []string{"read_file", "list_files", "find_files", "grep", "run_command", "todo_write"}
	withFetch := append(slices.Clone(BaseTools), "web_fetch")
	temp := ptr(0.1)
	denyAll := &Rules{Deny: []string{"run_command", "edit_file", "write_file"}}
	runCorpus(t, []corpusCase{
		{file: "anomalyco__opencode/.opencode/agent/docs.md", name: "docs", color: "#38A3EE",
			desc: "ALWAYS use this when writing docs", prompt: "You are an expert technical documentation writer"},
		{file: "justinmoon__frontier/.opencode/agent/docs.md", name: "docs",
			desc: "ALWAYS use this when writing docs", prompt: "You are an expert technical documentation writer"},
		{file: "MP281X__dotfiles/.opencode/agent/docs.md", name: "docs", model: "opencode/grok-code", temp: temp, tools: noEdits,
			desc: "Docs researcher. Local-first. Read-only. Verified facts only.", descEnd: "Verified facts only.", prompt: "# ROLE",
			perms: &Rules{Deny: []string{"run_command(rm:*)", "run_command(mv:*)", "run_command(cp:*)", "run_command(mkdir:*)",
				"run_command(touch:*)", "run_command(chmod:*)", "run_command(chown:*)", "run_command(>:*)", "run_command(>>:*)"}}},
		{file: "Apicurio__apicurio-registry/.opencode/agent/code-reviewer.md", name: "code-reviewer", model: "github-copilot/claude-sonnet-5",
			tools: readOnly, perms: denyAll,
			desc:   "Senior code reviewer for Apicurio Registry. Use when reviewing PRs, checking for bugs, or validating implementations.",
			prompt: "You are a senior code reviewer for Apicurio Registry."},
		{file: "siegstedt__betta/.opencode/agent/review.md", name: "review", model: "opencode-zen/grok-code-fast-1", temp: temp, tools: readOnly,
			perms: &Rules{Allow: []string{"run_command(git diff)", "run_command(git log:*)"}, Ask: []string{"run_command"},
				Deny: []string{"edit_file", "write_file", "web_fetch"}},
			desc: "Reviews code for quality and best practices", prompt: "You are in code review mode."},
		// permissions: (plural, a list) is not a field OpenCode knows; the
		// agent keeps every tool.
		{file: "MP281X__deslop/.opencode/agents/explore.md", name: "explore", model: "openai/gpt-5.6-luna#low",
			desc: "Use for broad, external, multi-source, or conversation-history investigation.", prompt: "Own the assigned investigation."},
		{file: "1-10-1__diene/.opencode/agents/explore.md", name: "explore", model: "openai/gpt-5.6-luna", effort: "low",
			tools: readOnly, perms: denyAll,
			desc:   "Read-only, token-efficient repository reconnaissance and concise codebase summaries.",
			prompt: "You are a lightweight repository reconnaissance specialist."},
		{file: "gimenorum__opencode-agents/.opencode/agents/explore.md", name: "explore", model: "opencode-go/mimo-v2.6-flash", temp: temp,
			tools: readOnly, perms: &Rules{Deny: []string{"run_command", "edit_file", "write_file"}},
			desc: "コードベースの探索。", descEnd: "ファイル変更は不可。", prompt: "あなたはコードベース探索専用"},
		{file: "echostlab__dotfiles/.opencode/agents/explore.md", name: "explore", model: "azure-foundry/gpt-5.4", temp: temp, steps: 6,
			tools: append(slices.Clone(noEdits), "web_fetch"),
			perms: &Rules{Allow: []string{"run_command", "find_files", "grep", "list_files", "read_file", "web_fetch"},
				Deny: []string{"run_command(rm -rf:*)", "edit_file", "write_file"}},
			desc: "Fast codebase exploration agent", descEnd: "Safe to call in parallel.", prompt: "You are an exploration agent."},
		{file: "quick-brown-foxxx__myai/.opencode/agents/explore.md", name: "explore", color: "info",
			desc:    "Fast agent specialized for exploring codebases. Use this when you need to quickly find files by patterns",
			descEnd: "across multiple locations and naming conventions.", prompt: "> machine-readable-agent-tag: explore"},
		{file: "Kalsito1017__ShipForge/.opencode/agent/docs.md", name: "docs",
			perms: &Rules{Allow: []string{"run_command", "edit_file", "write_file"}},
			desc:  "Technical writer for README.md and docs/", descEnd: "Use for documentation tasks.", prompt: "You are the **technical writer**"},
		// An unquoted ": " in the description, which OpenCode's fallback
		// reads whole.
		{file: "felipebalbi__mole/.opencode/agent/docs.md", name: "docs", model: "github-copilot/claude-sonnet-4.6", tools: withFetch,
			perms:   &Rules{Allow: []string{"edit_file", "write_file", "web_fetch"}, Ask: []string{"run_command"}},
			desc:    "Use when something needs to be explained, documented, taught, or onboarded: README updates",
			descEnd: `"make this approachable", "teach".`, prompt: "# Documentation / Education Specialist"},
	})
}
