package agenttypes

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/agenttypes/corpus"
)

// real is the corpus of agent files copied unmodified from public
// repositories (see its SOURCES). Each expectation below is what the file
// means in the tool it was written for.
const real = "../testdata/agents/real"

// claudeFile reads one corpus file the way Claude Code finds it: from a
// .claude/agents folder.
func claudeFile(t *testing.T, rel string) (Type, []Warning) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(real, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	project := t.TempDir()
	writeFile(t, filepath.Join(project, ".claude", "agents", filepath.Base(rel)), string(data))
	r := Load(LoadOptions{ProjectDir: project})
	name := strings.TrimSuffix(filepath.Base(rel), ".md")
	for _, ty := range r.All() {
		if ty.Source != BuiltinSource {
			return ty, r.Warnings()
		}
	}
	t.Fatalf("%s (%s) did not load: %v", rel, name, r.Warnings())
	return Type{}, nil
}

func TestRealClaudeCodeFiles(t *testing.T) {
	tests := []struct {
		file        string
		name, model string
		tools       []string
		dropped     []string
		description string // its opening words
		prompt      string // the prompt's opening words
	}{
		{file: "anthropics__claude-code/plugins/feature-dev/agents/code-explorer.md", name: "code-explorer", model: "sonnet",
			tools:       []string{"find_files", "grep", "list_files", "read_file", "web_fetch", "todo_write"},
			dropped:     []string{"NotebookRead", "WebSearch", "KillShell", "BashOutput"},
			description: "Deeply analyzes existing codebase features", prompt: "You are an expert code analyst"},
		{file: "anthropics__claude-code/plugins/pr-review-toolkit/agents/silent-failure-hunter.md", name: "silent-failure-hunter",
			model: InheritModel, tools: BaseTools,
			description: `Use this agent when reviewing code changes in a pull request to identify silent failures, inadequate error handling, and inappropriate fallback behavior. This agent should be invoked proactively after completing a logical chunk of work that involves error handling, catch blocks, fallback logic, or any code that could potentially suppress errors. Examples:\n\n<example>\nContext: Daisy has just finished`,
			prompt:      "You are an elite error handling auditor"},
		{file: "anthropics__claude-code/plugins/cc-taskrunner/agents/task-executor.md", name: "task-executor", model: InheritModel,
			tools:       []string{"run_command", "read_file", "grep", "find_files"},
			description: `Use this agent to monitor or debug autonomous task execution. Examples - "Why did my task fail?"`,
			prompt:      "You are a task execution specialist"},
		{file: "anthropics__claude-code/plugins/agent-instructions-loader/test/.claude/agents/test-canary.md", name: "test-canary",
			model: InheritModel, tools: BaseTools,
			description: "Test agent for verifying instructions loading works. Use this for testing.", prompt: "# Test Agent - Canary Verification"},
		{file: "wshobson__agents/plugins/backend-development/agents/feature-security-auditor.md", name: "backend-development-feature-security-auditor",
			model: "sonnet", tools: BaseTools,
			description: "Review code and architecture for security vulnerabilities, OWASP Top 10", prompt: "You are a security auditor"},
		{file: "VoltAgent__awesome-claude-code-subagents/categories/01-core-development/design-bridge.md", name: "design-bridge", model: InheritModel,
			tools:       []string{"read_file", "write_file", "edit_file", "run_command", "find_files", "grep", "web_fetch"},
			dropped:     []string{"WebSearch"},
			description: "Use this agent when you need to translate a DESIGN.md", prompt: "You are a senior design translator"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, warns := claudeFile(t, tt.file)
			if got.Name != tt.name || got.Model != tt.model || got.Hidden || got.Disabled {
				t.Errorf("name %q model %q hidden %v disabled %v, want %q %q offered", got.Name, got.Model, got.Hidden, got.Disabled, tt.name, tt.model)
			}
			if !slices.Equal(got.Tools, tt.tools) || !slices.Equal(got.DroppedTools, tt.dropped) {
				t.Errorf("tools %q dropped %q, want %q dropped %q", got.Tools, got.DroppedTools, tt.tools, tt.dropped)
			}
			if !strings.HasPrefix(got.Description, tt.description) || !strings.HasPrefix(got.SystemPrompt, tt.prompt) {
				t.Errorf("description %.80q… prompt %.40q…", got.Description, got.SystemPrompt)
			}
			if len(warns) != 0 {
				t.Errorf("warnings %v, want none: Claude Code reads this file as it is", warns)
			}
		})
	}
}

// openCodeProject loads a corpus project the way OpenCode finds its files.
func openCodeProject(t *testing.T, repo string) (Type, []Warning) {
	t.Helper()
	r := Load(LoadOptions{ProjectDir: filepath.Join(real, repo)})
	got, ok := r.Lookup("review")
	if !ok || got.Source == BuiltinSource {
		t.Fatalf("%s: review did not load: %v", repo, r.Warnings())
	}
	return got, r.Warnings()
}

func TestRealOpenCodeMoqReview(t *testing.T) {
	got, warns := openCodeProject(t, "moq-dev__moq")
	if !strings.HasPrefix(got.Description, "Review a pull request against AGENTS.md and CONTRIBUTING.md with read-only git.") || got.Hidden {
		t.Errorf("description %q hidden %v; mode: all is offered", got.Description, got.Hidden)
	}
	if got.Model != "model_api/muse-spark-1.3-contributor" {
		t.Errorf("model %q", got.Model)
	}
	if want := []string{"read_file", "list_files", "find_files", "grep", "run_command", "todo_write"}; !slices.Equal(got.Tools, want) {
		t.Errorf("tools %q, want %q", got.Tools, want)
	}
	allow := []string{"run_command(git diff:*)", "run_command(git show:*)", "run_command(git log:*)", "run_command(git blame:*)",
		"run_command(git status:*)", "run_command(git branch:*)", "run_command(gh pr view:*)", "run_command(gh pr diff:*)"}
	// The bash catch-all deny stays, as the fallback for commands none of
	// the patterns name: the reviewer runs exactly those git commands.
	want := Rules{Allow: allow, Deny: []string{"run_command", "edit_file", "write_file", "web_fetch"}}
	if !slices.Equal(got.Permissions.Allow, want.Allow) || len(got.Permissions.Ask) != 0 || !slices.Equal(got.Permissions.Deny, want.Deny) {
		t.Errorf("permissions %+v, want %+v", got.Permissions, want)
	}
	if len(warns) != 0 {
		t.Errorf("warnings %v, want none", warns)
	}
}

func TestRealOpenCodeReviewers(t *testing.T) {
	for _, repo := range []string{"Kyohei-Prj__opencode-config", "poolifier__poolifier"} {
		t.Run(repo, func(t *testing.T) {
			got, warns := openCodeProject(t, repo)
			if want := []string{"read_file", "list_files", "find_files", "grep", "todo_write"}; !slices.Equal(got.Tools, want) {
				t.Errorf("tools %q, want %q", got.Tools, want)
			}
			if got.Temperature == nil || *got.Temperature != 0.1 || got.TopP != nil {
				t.Errorf("temperature %v top_p %v, want 0.1 and unset", got.Temperature, got.TopP)
			}
			if got.Model != InheritModel || got.Hidden || len(warns) != 0 {
				t.Errorf("model %q hidden %v warnings %v", got.Model, got.Hidden, warns)
			}
		})
	}
}

func TestRealOpenCodeWithoutFrontmatter(t *testing.T) {
	got, warns := openCodeProject(t, "gitlabhq__orbit-knowledge-graph")
	if got.Description != "Review agent" || !strings.HasPrefix(got.SystemPrompt, "# Review agent\n\nYou review Rust merge requests") {
		t.Errorf("description %q prompt %.40q", got.Description, got.SystemPrompt)
	}
	if !slices.Equal(got.Tools, BaseTools) || len(warns) != 1 || !strings.Contains(warns[0].Message, "no description") {
		t.Errorf("tools %q warnings %v", got.Tools, warns)
	}
}

// TestOpenCodeNestedFolders puts real files below sub-folders, as people
// organise them: the name is the path below the folder unless the file
// sets name.
func TestOpenCodeNestedFolders(t *testing.T) {
	project := t.TempDir()
	corpus.Copy(t, "moq-dev__moq/.opencode/agent/review.md", project, ".opencode/agent/git/pr-review.md")
	corpus.Copy(t, "poolifier__poolifier/.opencode/agent/review.md", project, ".opencode/agents/a/b/c/quick.md")
	corpus.Copy(t, "VoltAgent__awesome-claude-code-subagents/categories/01-core-development/design-bridge.md", project, ".opencode/agents/ui/bridge.md")
	writeFile(t, filepath.Join(project, ".opencode", "agent", "main.md"), "---\ndescription: the main agent\nmode: primary\n---\nx\n")
	writeFile(t, filepath.Join(project, ".opencode", "agent", "old", "gone.md"), "---\ndescription: old\ndisable: true\n---\nx\n")
	r := Load(LoadOptions{ProjectDir: project})
	for _, name := range []string{"git/pr-review", "a/b/c/quick", "design-bridge"} {
		if _, ok := r.Lookup(name); !ok {
			t.Errorf("Lookup(%q) failed; loaded %q, warnings %v", name, r.Names(), r.Warnings())
		}
	}
	offered := r.Names()
	for _, name := range []string{"main", "old/gone"} {
		if slices.Contains(offered, name) {
			t.Errorf("%s is offered; primary and disabled agents are not", name)
		}
	}
}
