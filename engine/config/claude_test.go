package config

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestSettingsLocalNarrowsUntilTrusted: .claude/settings.local.json,
// where Claude Code writes "always allow", is read with the trust rules
// of .claude/settings.json: deny and ask at once, allow once trusted.
func TestSettingsLocalNarrowsUntilTrusted(t *testing.T) {
	w := newConfigWorld(t, "", "")
	writeFile(t, filepath.Join(w.workspace, ".claude", "settings.local.json"),
		`{"permissions":{"allow":["Bash(npm test:*)","WebFetch(domain:docs.example.com)"],"ask":["Edit(src/**)"]}}`)
	env := map[string]string{"HOME": w.home}
	cfg, err := Load(Sources{Env: env, Workspace: w.workspace})
	if err != nil {
		t.Fatal(err)
	}
	if got := ruleTexts(cfg.Rules); !slices.Equal(got, []string{"ask edit_file(src/**) @.claude/settings.local.json"}) {
		t.Errorf("untrusted rules %v", got)
	}
	if !strings.Contains(strings.Join(cfg.Notices, "\n"), "ignored 2 allow rule(s) in .claude/settings.local.json") {
		t.Errorf("notices %v", cfg.Notices)
	}
	trusted, err := Load(Sources{Env: env, Workspace: w.workspace, Trusted: true})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(ruleTexts(trusted.Rules), "\n")
	if !strings.Contains(got, "allow run_command(npm test:*) @.claude/settings.local.json") {
		t.Errorf("trusted rules:\n%s", got)
	}
}

// TestClaudeOverridesLayer: Claude Code's flags set what the config
// sets, over everything else; a rule baton cannot read is skipped with a
// notice naming the flag, and flags without effect are named once.
func TestClaudeOverridesLayer(t *testing.T) {
	w := newConfigWorld(t, "allow = [\"grep\"]\n", "")
	prompt, extra := "Be someone else.", "Be brief."
	cfg, err := w.load(t, Overrides{Claude: ClaudeOverrides{
		AllowedTools: []string{"Bash(git log:*)", "Read", "Grep", "NoSuchTool"}, DisallowedTools: []string{"WebFetch", "Skill"},
		AcceptEdits: true, SystemPrompt: &prompt, AppendSystemPrompt: &extra, AskOverStdio: true, DebugFile: "/tmp/d.log",
		Ignored: []string{"--effort", "--thinking"},
	}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"grep", "run_command(git log:*)", "read_file", "edit_file", "write_file"}; !slices.Equal(cfg.Allow, want) {
		t.Errorf("allow %v, want %v", cfg.Allow, want)
	}
	if got := ruleTexts(cfg.Rules); !slices.Equal(got, []string{"deny web_fetch @--disallowedTools"}) {
		t.Errorf("rules %v", got)
	}
	if cfg.SystemPrompt != prompt || cfg.AppendSystemPrompt != extra || !cfg.AskOverStdio || cfg.DebugLog != "/tmp/d.log" {
		t.Errorf("config %+v", cfg)
	}
	notices := strings.Join(cfg.Notices, "\n")
	for _, want := range []string{`--allowedTools: skipped "NoSuchTool"`, `--disallowedTools: skipped "Skill"`,
		"--effort, --thinking: accepted for Claude Code's sake; baton has no such setting"} {
		if !strings.Contains(notices, want) {
			t.Errorf("notices lack %q:\n%s", want, notices)
		}
	}
	if cfg.Mode(true) != "ask" || cfg.Mode(false) != "ask" {
		t.Errorf("asked over stdio, headless mode %s", cfg.Mode(true))
	}
}

// TestSettingSourcesChooseClaudesFiles: --setting-sources names which of
// Claude Code's three settings files are read; an empty value reads none
// and a source Claude Code lacks is refused.
func TestSettingSourcesChooseClaudesFiles(t *testing.T) {
	if got, err := ParseSettingSources(" user,local ,"); err != nil || !slices.Equal(got, []string{"user", "local"}) {
		t.Errorf("user,local: %v %v", got, err)
	}
	if got, err := ParseSettingSources(""); err != nil || got == nil || len(got) != 0 {
		t.Errorf("empty: %v %v; want an empty list, not nil (nil reads all)", got, err)
	}
	if _, err := ParseSettingSources("user,cloud"); err == nil || !strings.Contains(err.Error(), `got "cloud"`) {
		t.Errorf("cloud: %v", err)
	}
	w := newConfigWorld(t, "", "")
	writeFile(t, filepath.Join(w.home, ".claude", "settings.json"), `{"permissions":{"deny":["Bash(curl:*)"]}}`)
	writeFile(t, filepath.Join(w.workspace, ".claude", "settings.json"), `{"permissions":{"deny":["Bash(wget:*)"]}}`)
	writeFile(t, filepath.Join(w.workspace, ".claude", "settings.local.json"), `{"permissions":{"deny":["Bash(nc:*)"]}}`)
	for sources, want := range map[string][]string{
		"":              nil,
		"project":       {"deny run_command(wget:*) @.claude/settings.json"},
		"user,local":    {"deny run_command(curl:*) @~/.claude/settings.json", "deny run_command(nc:*) @.claude/settings.local.json"},
		"local,project": {"deny run_command(wget:*) @.claude/settings.json", "deny run_command(nc:*) @.claude/settings.local.json"},
	} {
		list, _ := ParseSettingSources(sources)
		cfg, err := w.load(t, Overrides{Claude: ClaudeOverrides{SettingSources: list}}, nil)
		if got := ruleTexts(cfg.Rules); err != nil || !slices.Equal(got, want) {
			t.Errorf("--setting-sources=%s: rules %v (%v), want %v", sources, got, err, want)
		}
	}
}
