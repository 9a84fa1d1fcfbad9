package agenttypes

import "testing"

// TestCorpusClaudeCode reads real Claude Code agent files the way Claude
// Code does: tools a comma list or YAML list (omitted, or "*", is every
// tool), model inherit or an alias or id, Task ignored in a child.
func TestCorpusClaudeCode(t *testing.T) {
	readGrepGlobBash := []string{"read_file", "grep", "find_files", "run_command"}
	runCorpus(t, []corpusCase{
		{file: "anthropics__claude-code/plugins/pr-review-toolkit/agents/code-reviewer.md", name: "code-reviewer", model: "opus", color: "green",
			desc:    "Use this agent when you need to review code for adherence to project guidelines",
			descEnd: "make sure to specify this as the agent input when calling the agent.", prompt: "Examples:\n<example>"},
		// Its description runs on over unindented lines holding "user:"
		// and "Context:", and ends where model: starts. Claude Code's
		// own parser fails on it (anthropics/claude-code#91871); what the
		// author wrote is still plain, and baton reads it so.
		{file: "anthropics__claude-code/plugins/pr-review-toolkit/agents/code-simplifier.md", name: "code-simplifier", model: "opus",
			desc:    "Use this agent when code has been written or modified and needs to be simplified",
			descEnd: "is also clear and follows our coding standards\"\n</example>", prompt: "You are an expert code simplification specialist"},
		{file: "anthropics__claude-code/plugins/pr-review-toolkit/agents/comment-analyzer.md", name: "comment-analyzer", color: "green",
			desc:    "Use this agent when you need to analyze code comments for accuracy, completeness, and long-term maintainability. This includes: (1) After",
			descEnd: "verify that comments accurately reflect the code they describe.", prompt: "<example>"},
		{file: "anthropics__claude-code/plugins/plugin-dev/agents/skill-reviewer.md", name: "skill-reviewer", color: "cyan",
			tools: []string{"read_file", "grep", "find_files"},
			desc:  "Use this agent when the user has created or modified a skill", descEnd: "</commentary>\n</example>",
			prompt: "You are an expert skill architect"},
		{file: "anthropics__claude-code/plugins/codex/agents/codex-manager.md", name: "codex-manager", model: "sonnet", color: "cyan",
			tools: []string{"run_command"}, dropped: []string{"AskUserQuestion"},
			desc: "Manages OpenAI Codex interactions via CLI", descEnd: "through the codex_cli.py tool.", prompt: "You are the Codex Manager."},
		{file: "vijaythecoder__awesome-claude-agents/agents/core/code-reviewer.md", name: "code-reviewer",
			tools: []string{"list_files", "read_file", "grep", "find_files", "run_command"},
			desc:  "MUST BE USED to run a rigorous, security-aware review", descEnd: "agents.", prompt: "# Code"},
		{file: "timezyme__claude-code-sub-agents-lst197/development/golang-pro.md", name: "golang-pro", model: "sonnet",
			tools: []string{"read_file", "write_file", "edit_file", "grep", "find_files", "run_command", "list_files", "web_fetch",
				"mcp__context7__resolve-library-id", "mcp__context7__get-library-docs", "mcp__sequential-thinking__sequentialthinking"},
			dropped: []string{"WebSearch"},
			desc:    "A Go expert that architects", descEnd: "and complex concurrency challenges.", prompt: "# Golang Pro"},
		// Claude Code needs the frontmatter's name and description, and
		// leaves a file without them out; so does baton, saying why.
		{file: "taka-123__ai-knowledge-rulebook/.claude/agents/codebase-explorer.md", skip: "no frontmatter"},
		{file: "ihwooMil__mcp-memory-server/.claude/agents/reviewer.md", skip: "no frontmatter"},
		{file: "forest6511__claude-code-in-production/part6-cost/agents/code-explorer.md", name: "code-explorer", model: "haiku",
			desc: "Agent dedicated to codebase investigation", descEnd: "rather than detailed code analysis.",
			prompt: "This agent specializes in codebase exploration"},
		// The whole header is indented, the closing "---" too; Claude
		// Code's header pattern does not anchor it and reads the fields.
		{file: "findingsimple__scryfall-local/.claude/agents/reviewer.md", name: "reviewer", tools: readGrepGlobBash,
			desc: "Code review with fresh perspective", descEnd: "fresh perspective", prompt: "Review this codebase as if seeing it"},
		// A display name with a space and an emoji: the agent loads under
		// its file's name, which can be typed in a task call.
		{file: "rem0930__market-analyzer/.claude/agents/reviewer.md", name: "reviewer", model: "claude-3-5-sonnet-20241022",
			tools: []string{"read_file", "write_file", "grep", "find_files"},
			desc:  "MUST BE USED for PR reviews", descEnd: "and rollback perspectives.", prompt: "# Reviewer Agent",
			warn: `name "Code Reviewer 👀"`},
		{file: "Sycochucky__claude-code-toolkit/plugins/autonomous-orchestrator/agents/orchestrator.md", name: "orchestrator", model: "opus", color: "magenta",
			desc:    "Use this agent when the user has a complex, multi-step goal requiring autonomous planning",
			descEnd: "</commentary>\n</example>", prompt: "You are the **Autonomous Orchestrator**"},
		{file: "AccumulateNetwork__accumulate/.claude/agents/debugger.md", name: "debugger", model: "opus",
			desc: "Finds the root cause of a failure and proves it.", descEnd: "what you have already ruled out.", prompt: "You find causes."},
		{file: "Augani__sweeper/.claude/agents/debugger.md", name: "debugger", model: "sonnet", tools: readGrepGlobBash,
			desc: "Debugs issues using project-specific knowledge", descEnd: "project-specific knowledge",
			prompt: "You are an expert debugger for this project."},
		{file: "AgentWorkforce__relay/.claude/agents/debugger.md", name: "debugger", model: "claude-sonnet-4",
			tools:   []string{"read_file", "write_file", "edit_file", "grep", "find_files", "run_command", "web_fetch"},
			dropped: []string{"WebSearch"},
			desc:    "Bug investigation and root cause analysis.", descEnd: "and identifying fixes.", prompt: "# 🔍 Debugger"},
	})
}
