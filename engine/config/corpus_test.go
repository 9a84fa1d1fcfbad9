package config

import (
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/agenttypes/corpus"
)

// TestCorpusClaudeAndOpenCodeRules reads real .claude/settings.local.json
// and opencode.json files as a project's: Claude Code's rules (the newer
// "npm run *" spelling and an environment prefix among them) and
// OpenCode's permission become baton's, deny and ask at once, allow once
// the folder is trusted.
func TestCorpusClaudeAndOpenCodeRules(t *testing.T) {
	w := newConfigWorld(t, "", "")
	corpus.Copy(t, "DEFRA__nrf-frontend/.claude/settings.local.json", w.workspace, ".claude/settings.local.json")
	corpus.Copy(t, "0rac1e__opencode-kit/opencode.json", w.workspace, "opencode.json")
	env := map[string]string{"HOME": w.home}
	untrusted, err := Load(Sources{Env: env, Workspace: w.workspace})
	if err != nil {
		t.Fatal(err)
	}
	rules := strings.Join(ruleTexts(untrusted.Rules), "\n")
	if !strings.Contains(rules, "deny run_command(rm -rf:*) @opencode.json") || strings.Contains(rules, "allow ") {
		t.Errorf("untrusted rules:\n%s", rules)
	}
	trusted, err := Load(Sources{Env: env, Workspace: w.workspace, Trusted: true})
	if err != nil {
		t.Fatal(err)
	}
	rules = strings.Join(ruleTexts(trusted.Rules), "\n")
	for _, want := range []string{"allow run_command(npm test:*) @.claude/settings.local.json", "allow run_command(npm run lint) @.claude/settings.local.json",
		"allow run_command(go test:*) @opencode.json", "ask web_fetch @opencode.json"} {
		if !strings.Contains(rules, want) {
			t.Errorf("trusted rules lack %q:\n%s", want, rules)
		}
	}
	notices := strings.Join(trusted.Notices, "\n")
	if !strings.Contains(notices, `skipped permission "Bash(TZ=UTC npx vitest run:*)"`) {
		t.Errorf("an environment prefix baton cannot read as a rule is not told:\n%s", notices)
	}

	w2 := newConfigWorld(t, "", "")
	corpus.Copy(t, "DG777777__claude-code-mastery/.claude/settings.local.json", w2.workspace, ".claude/settings.local.json")
	cfg, err := Load(Sources{Env: map[string]string{"HOME": w2.home}, Workspace: w2.workspace, Trusted: true})
	if err != nil {
		t.Fatal(err)
	}
	if rules := strings.Join(ruleTexts(cfg.Rules), "\n"); !strings.Contains(rules, "allow run_command(npm run:*)") ||
		!strings.Contains(rules, "allow run_command(curl -s http://localhost:5173)") {
		t.Errorf("rules:\n%s", rules)
	}
}
