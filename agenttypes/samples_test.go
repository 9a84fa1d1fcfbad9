package agenttypes

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// samples is the folder of agent files written the way Claude Code,
// OpenCode and baton users write them, broken ones included.
const samples = "../testdata/agents"

func TestParseFileSamples(t *testing.T) {
	readOnly := []string{"read_file", "list_files", "find_files", "grep"}
	tests := []struct {
		file   string
		want   Type   // SystemPrompt and Source are checked apart
		prompt string // the system prompt's first words
		warns  []string
	}{
		{file: "claude/code-reviewer.md", prompt: "You are a senior code reviewer", want: Type{
			Name: "code-reviewer", DisplayName: "Code Reviewer",
			Description: "Expert code review specialist. Proactively reviews code for quality, security, and maintainability. Use immediately after writing or modifying code.",
			Tools:       []string{"read_file", "grep", "find_files", "run_command"}, Model: "sonnet", Color: "red",
		}},
		{file: "claude/debugger.md", prompt: "You are an expert debugger", want: Type{
			Name: "debugger", DisplayName: "Debugger",
			Description: "Debugging specialist for errors, test failures, and unexpected behavior. Use proactively when encountering any issues.",
			Tools:       []string{"read_file", "edit_file", "run_command", "grep", "find_files"}, Model: InheritModel, MaxSteps: 20,
		}, warns: []string{"8: Bash(go test:*, go build:*): argument patterns are not supported, so all of run_command is allowed"}},
		{file: "claude/test-runner.md", prompt: "You run tests.", want: Type{
			Name: "test-runner", DisplayName: "Test Runner",
			Description: "Use this agent after code changes to run the relevant test suites and explain failures. It never edits code.",
			Tools:       append(readOnly, "run_command", "todo_write"), Model: InheritModel, Color: "green",
		}},
		{file: "claude/docs-fetcher.md", prompt: "Look up the library's documentation", want: Type{
			Name: "docs-fetcher", DisplayName: "Docs Fetcher",
			Description: "Fetches up-to-date library documentation and summarises the parts relevant to the question.",
			Tools:       []string{"read_file", "web_fetch", "mcp__context7__get-library-docs", "grep"}, Model: "haiku",
		}},
		{file: "opencode/docs-writer.md", prompt: "You are a technical writer.", want: Type{
			Name: "docs-writer", DisplayName: "Docs Writer", Description: "Writes and maintains project documentation",
			Tools: append(readOnly, "run_command", "todo_write"), Model: "anthropic/claude-sonnet-4-20250514", MaxSteps: 8,
			Temperature: ptr(0.1),
		}},
		{file: "opencode/build.md", prompt: "You are the main build agent", want: Type{
			Name: "build", DisplayName: "Build", Description: "Primary build agent with every tool enabled",
			Tools: BaseTools, Model: "openai/gpt-4.1", Hidden: true,
			Permissions: Rules{Allow: []string{"run_command"}, Ask: []string{"run_command(git push)", "edit_file", "write_file"}},
		}},
		{file: "opencode/security-auditor.md", prompt: "You are a security expert.", want: Type{
			Name: "security-auditor", DisplayName: "Security Auditor", Description: "Performs security audits and identifies vulnerabilities",
			Tools: append(readOnly, "todo_write"), Model: InheritModel, Hidden: true,
		}},
		{file: "opencode/legacy-reviewer.md", prompt: "Review code the way", want: Type{
			Name: "legacy-reviewer", DisplayName: "Legacy Reviewer", Description: "Old review agent kept for reference",
			Tools: BaseTools, Model: InheritModel, Disabled: true,
		}},
		{file: "baton/screenshot-reviewer.md", prompt: "You review screenshots.", want: Type{
			Name: "screenshot-reviewer", DisplayName: "Screenshot Reviewer",
			Description: "Compares UI screenshots against the design and reports visual regressions.",
			Tools:       []string{"read_file", "list_files", "find_files"}, Model: "gpt-4.1", MaxSteps: 12,
			Timeout: 300 * time.Second, Capabilities: []string{"vision"}, Effort: "high", Color: "#7aa2f7",
		}},
		{file: "baton/migration-planner.md", prompt: "Plan schema migrations.", want: Type{
			Name: "migration_planner", DisplayName: "Migration Planner", Description: "Plans database schema migrations with rollback steps.",
			Tools: []string{"read_file", "grep", "find_files"}, Model: InheritModel, Timeout: 150 * time.Second,
			Capabilities: []string{"reasoning", "vision"}, Effort: "medium",
		}},
		{file: "broken/bad-fields.md", prompt: "Fields with bad values", want: Type{
			Name: "bad-fields", DisplayName: "Bad Fields", Description: "Loads, but every optional field is wrong.",
			Tools: BaseTools, Model: InheritModel,
		}, warns: []string{
			"4: max_steps must be a whole number",
			"5: timeout_s must be a number of seconds",
			"6: effort must be low, medium or high",
			"7: mode must be subagent, primary or all",
			"8: hidden must be true or false",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			path, data := readSample(t, tt.file)
			got, warns, err := ParseFile(path, data)
			if err != nil {
				t.Fatalf("ParseFile: %v", err)
			}
			if !strings.HasPrefix(got.SystemPrompt, tt.prompt) {
				t.Errorf("SystemPrompt = %q, want it to start with %q", got.SystemPrompt, tt.prompt)
			}
			if got.Source != path {
				t.Errorf("Source = %q, want %q", got.Source, path)
			}
			got.SystemPrompt, got.Source = "", ""
			if g, w := comparable(got), comparable(tt.want); !reflect.DeepEqual(g, w) {
				t.Errorf("ParseFile =\n%+v\nwant\n%+v", g, w)
			}
			checkWarnings(t, path, warns, tt.warns)
		})
	}
}

func TestParseFileBrokenSamples(t *testing.T) {
	tests := []struct {
		file, want string // want is "line: message prefix"
	}{
		{"broken/no-description.md", "1: skipped: no description: add a description: line"},
		{"broken/no-frontmatter.md", "1: skipped: no frontmatter"},
		{"broken/unclosed.md", "1: skipped: the frontmatter is not closed"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			path, data := readSample(t, tt.file)
			got, _, err := ParseFile(path, data)
			if err == nil {
				t.Fatalf("ParseFile = %+v, want an error", got)
			}
			checkWarnings(t, path, []Warning{skipWarning(t, err)}, []string{tt.want})
		})
	}
}

func readSample(t *testing.T, rel string) (string, []byte) {
	t.Helper()
	path := filepath.Join(samples, filepath.FromSlash(rel))
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read sample: %v", err)
	}
	return path, data
}

// skipWarning asserts err is the Warning ParseFile promises.
func skipWarning(t *testing.T, err error) Warning {
	t.Helper()
	var w Warning
	if !errors.As(err, &w) {
		t.Fatalf("error %v (%T) is not a Warning", err, err)
	}
	return w
}

// checkWarnings compares warnings with wants written "line: message
// prefix", and checks each names the file.
func checkWarnings(t *testing.T, path string, got []Warning, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("warnings = %q, want %d matching %q", got, len(want), want)
	}
	for i, w := range got {
		if line := fmt.Sprintf("%d: %s", w.Line, w.Message); !strings.HasPrefix(line, want[i]) {
			t.Errorf("warning %d = %q, want prefix %q", i, line, want[i])
		}
		if w.File != path {
			t.Errorf("warning %d names %q, want %q", i, w.File, path)
		}
	}
}

// comparable clears empty slices so nil and empty compare equal.
func comparable(t Type) Type {
	for _, s := range []*[]string{&t.Tools, &t.Capabilities, &t.DroppedTools} {
		if len(*s) == 0 {
			*s = nil
		}
	}
	if len(t.Extra) == 0 {
		t.Extra = nil
	}
	return t
}

func ptr(f float64) *float64 { return &f }
