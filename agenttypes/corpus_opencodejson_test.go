package agenttypes

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestCorpusOpenCodeConfig reads real opencode.json files (see SOURCES)
// as OpenCode reads them: the top-level permission as rules (a command
// pattern "go test *" is a prefix rule, "*" the tool's default, keys for
// tools baton lacks ignored), and the agent blocks as agents: named by
// their key, described, their permission their own rules, a tool denied
// outright gone; comments allowed (the second file has them), a {file:…}
// prompt read from beside the config, one that is missing a warning.
func TestCorpusOpenCodeConfig(t *testing.T) {
	kit, err := ReadOpenCodeConfig("", filepath.Join(real, "0rac1e__opencode-kit", "opencode.json"), nil)
	if err != nil {
		t.Fatal(err)
	}
	p := kit.Permission
	for _, want := range []string{"edit_file", "write_file", "run_command(make:*)", "run_command(go test:*)", "run_command(git status:*)"} {
		if !slices.Contains(p.Allow, want) {
			t.Errorf("permission allow lacks %s: %v", want, p.Allow)
		}
	}
	for _, want := range []string{"run_command(rm -rf:*)", "run_command(git push --force:*)", "run_command(sudo:*)", "run_command(git checkout .)"} {
		if !slices.Contains(p.Deny, want) {
			t.Errorf("permission deny lacks %s: %v", want, p.Deny)
		}
	}
	if !slices.Contains(p.Ask, "run_command") || !slices.Contains(p.Ask, "web_fetch") {
		t.Errorf("permission ask %v, want bash's default and webfetch", p.Ask)
	}
	if len(kit.PermissionWarnings) != 0 {
		t.Errorf("permission warnings %v", kit.PermissionWarnings)
	}
	byName := map[string]Type{}
	for _, a := range kit.Agents {
		byName[a.Name] = a
	}
	reviewer, ok := byName["code-reviewer"]
	if !ok || len(kit.Agents) != 5 {
		t.Fatalf("agents %v", slices.Collect(func(yield func(string) bool) {
			for n := range byName {
				yield(n)
			}
		}))
	}
	if !strings.HasPrefix(reviewer.Description, "Reviews code changes for architecture compliance") ||
		slices.Contains(reviewer.Tools, "edit_file") || slices.Contains(reviewer.Tools, "write_file") ||
		!slices.Contains(reviewer.Permissions.Allow, "run_command(git diff:*)") || !slices.Contains(reviewer.Permissions.Deny, "run_command") {
		t.Errorf("code-reviewer %+v", reviewer)
	}
	if build := byName["build"]; !build.Hidden {
		t.Errorf("build, OpenCode's primary agent, is offered as a sub-agent: %+v", build)
	}

	dir := t.TempDir()
	data, err := os.ReadFile(filepath.Join(real, "0xC0D3D00D__opencode.config", "opencode.json"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "opencode.json"), string(data))
	writeFile(t, filepath.Join(dir, "prompt", "codex.txt"), "You are a careful engineer.")
	cfg, err := ReadOpenCodeConfig(dir, filepath.Join(dir, "opencode.json"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(cfg.Permission.Allow, "run_command(git push:*)") || !slices.Contains(cfg.Permission.Deny, "run_command(sudo:*)") ||
		!slices.Contains(cfg.Permission.Allow, "read_file(.env)") {
		t.Errorf("permission %+v", cfg.Permission)
	}
	agents := map[string]Type{}
	for _, a := range cfg.Agents {
		agents[a.Name] = a
	}
	explore := agents["explore"]
	if explore.SystemPrompt != "You are a careful engineer." || explore.Model != "openrouter/openai/gpt-oss-120b" ||
		!slices.Contains(explore.Permissions.Allow, "run_command(git diff:*)") {
		t.Errorf("explore %+v", explore)
	}
	if docs := agents["docs"]; !slices.Contains(docs.Permissions.Allow, "write_file(**/*.md)") || !slices.Contains(docs.Permissions.Deny, "write_file") {
		t.Errorf("docs %+v", docs.Permissions)
	}
	warned := false
	for _, w := range cfg.AgentWarnings {
		warned = warned || strings.Contains(w.String(), "prompt {file:./prompt/anthropic.txt}")
	}
	if !warned {
		t.Errorf("a missing prompt file is not told: %v", cfg.AgentWarnings)
	}
}

// TestOpenCodeConfigPromptStaysInside: a project's opencode.json whose
// {file:…} prompt names a file outside the project, through a path or a
// symlink, is not read.
func TestOpenCodeConfigPromptStaysInside(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "secret.txt")
	writeFile(t, outside, "the secret")
	dir := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(dir, "link.txt")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "opencode.json"), `{"agent": {
		"a": {"description": "A", "prompt": "{file:`+outside+`}"},
		"b": {"description": "B", "prompt": "{file:./link.txt}"},
		"c": {"description": "C", "prompt": "{file:../../../../../../`+outside+`}"}}}`)
	cfg, err := ReadOpenCodeConfig(dir, filepath.Join(dir, "opencode.json"), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range cfg.Agents {
		if strings.Contains(a.SystemPrompt, "secret") {
			t.Errorf("agent %s read a file outside the project: %q", a.Name, a.SystemPrompt)
		}
	}
	if len(cfg.AgentWarnings) < 3 {
		t.Errorf("warnings %v", cfg.AgentWarnings)
	}
}

// TestLoadReadsOpenCodeConfigAgents: Load offers the agent blocks of the
// project's opencode.json beside its agent files, and withholds what an
// untrusted project may not have.
func TestLoadReadsOpenCodeConfigAgents(t *testing.T) {
	project := t.TempDir()
	data, err := os.ReadFile(filepath.Join(real, "0rac1e__opencode-kit", "opencode.json"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(project, "opencode.json"), string(data))
	r := Load(LoadOptions{ProjectDir: project})
	for _, name := range []string{"plan-reviewer", "code-reviewer", "code-researcher"} {
		if _, ok := r.Lookup(name); !ok {
			t.Errorf("%s is not offered: %v", name, r.Names())
		}
	}
}
