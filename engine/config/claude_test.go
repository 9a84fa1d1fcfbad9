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
