package agenttypes

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCorpusCommands reads real custom slash commands the way Claude Code
// and OpenCode do: the name from the path (folders joined by ":"),
// description from the frontmatter or else the first line, model, and
// OpenCode's agent and subtask; allowed-tools grants nothing here.
func TestCorpusCommands(t *testing.T) {
	tests := []struct {
		file, name, desc, model, agent string
		subtask                        bool
		template                       string // opening words
		args                           string // typed after the command; must reach the prompt
	}{
		{file: "anthropics__claude-code/.claude/commands/commit-push-pr.md", name: "commit-push-pr",
			desc: "Commit, push, and open a PR", template: "## Context"},
		{file: "anthropics__claude-code/.claude/commands/dedupe.md", name: "dedupe", desc: "Find duplicate GitHub issues",
			template: "Find up to 3 likely duplicate issues", args: "1234"},
		{file: "MP281X__dotfiles/.opencode/command/commit.md", name: "commit", desc: "Git commit from index, pull --rebase, then push.",
			model: "github-copilot/claude-haiku-4.5", subtask: true, template: "# ROLE", args: "fix typo"},
		{file: "aarsh21__writer/.opencode/command/commit.md", name: "commit", desc: "git commit and push",
			model: "zai-coding-plan/glm-4.6", template: "commit and push"},
		{file: "0xd0e__claude-workflow/.claude/commands/commit.md", name: "commit", desc: "Create a git commit", template: "## Context"},
		{file: "7shi__shaberi/.claude/commands/commit.md", name: "commit", desc: "stagingされたファイルを日本語メッセージでコミット",
			template: "# Git コミットの作成"},
		{file: "gentamura__dotfiles/.claude/commands/pr/review.md", name: "pr:review", desc: "PR Review", template: "# PR Review", args: "#42"},
		{file: "bjrump__dotfiles/.opencode/command/review.md", name: "review", desc: "Review code changes with project conventions",
			agent: "oracle", subtask: true, template: "Review the following code:", args: "src/app.ts"},
		{file: "Socret360__learning-rust/.opencode/command/review.md", name: "review",
			desc: "Review the learner's current project for correctness and idioms.", agent: "code-reviewer", subtask: true,
			template: "Review the project at:", args: "books/ch03"},
		{file: "17hz__nextjs-template/.claude/commands/commit.md", name: "commit", desc: "Create a git commit", template: "# Commit current work"},
		// Fields OpenCode's subtask2 plugin adds (return, last) are kept
		// aside; a prompt with no placeholder gets the arguments after it.
		{file: "Bakrog__subtask2/.opencode/command/test.md", name: "test", desc: "test", agent: "general", subtask: true,
			model: "github-copilot/gpt-4.1", template: "please say the magic word", args: "abracadabra"},
		{file: "Aryak320__Configs/.opencode/command/test.md", name: "test", desc: "Tests NeoVim configurations and validates implementations",
			template: "<test_request>", args: "lsp"},
		// An unquoted ": " in the description, read whole.
		{file: "atmavichara108__dotfiles/.opencode/command/test.md", name: "test",
			desc: "Проверить пакет: синтаксис, статус сервисов, логи, stow dry-run", agent: "verifier", subtask: true,
			template: "# /test — автоматическая верификация пакета", args: "sway"},
		{file: "darrenhinde__opencode-agents/.opencode/command/test.md", name: "test", desc: "Run the complete testing pipeline",
			template: "# Testing Pipeline"},
		// build is OpenCode's main agent: the command runs there, not as
		// a sub-task.
		{file: "EsauPR__demo-opencode-nestjs/.opencode/command/test.md", name: "test", desc: "Run tests with coverage", agent: "build",
			template: "Run the full test suite with coverage"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(real, filepath.FromSlash(tt.file)))
			if err != nil {
				t.Fatal(err)
			}
			rel := tt.file[strings.Index(tt.file, "/")+1:]
			project := t.TempDir()
			writeFile(t, filepath.Join(project, filepath.FromSlash(rel)), string(data))
			cmds, warns := LoadCommands(LoadOptions{ProjectDir: project})
			if len(cmds) != 1 || len(warns) != 0 {
				t.Fatalf("commands %+v warnings %v, want one and no warnings", cmds, warns)
			}
			c := cmds[0]
			if c.Name != tt.name || c.Description != tt.desc || c.Model != tt.model || c.Agent != tt.agent || c.Subtask != tt.subtask {
				t.Errorf("got /%s %q model %q agent %q subtask %v, want /%s %q %q %q %v",
					c.Name, c.Description, c.Model, c.Agent, c.Subtask, tt.name, tt.desc, tt.model, tt.agent, tt.subtask)
			}
			if !strings.HasPrefix(c.Template, tt.template) {
				t.Errorf("template %.60q…, want it to open with %q", c.Template, tt.template)
			}
			if tt.args != "" && !strings.Contains(c.Expand(tt.args), tt.args) {
				t.Errorf("Expand(%q) lost the arguments", tt.args)
			}
		})
	}
}
