package config

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestHooksTableInConfig reads [[hooks.PreToolUse]] in baton's own
// config, Claude Code's shape written in TOML; a project's hooks wait for
// the folder's trust.
func TestHooksTableInConfig(t *testing.T) {
	w := newConfigWorld(t, "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"./guard.sh\"\ntimeout = 5\n",
		"hooks = { Stop = [ { hooks = [ { type = \"command\", command = \"make check\" } ] } ] }\n")
	cfg := w.loadAs(t, false)
	if len(cfg.Hooks) != 1 || cfg.Hooks[0].Command != "./guard.sh" || cfg.Hooks[0].Matcher != "Bash" || cfg.Hooks[0].Timeout != 5*time.Second {
		t.Fatalf("hooks %+v", cfg.Hooks)
	}
	if len(cfg.WithheldHooks) != 1 || cfg.WithheldHooks[0].Command != "make check" {
		t.Fatalf("withheld %+v", cfg.WithheldHooks)
	}
	if trusted := w.loadAs(t, true); len(trusted.Hooks) != 2 || len(trusted.WithheldHooks) != 0 {
		t.Errorf("trusted hooks %+v", trusted.Hooks)
	}
	if _, err := Load(Sources{Env: map[string]string{"HOME": newConfigWorld(t, "hooks = 3\n", "").home}, Workspace: t.TempDir()}); err == nil || !strings.Contains(err.Error(), "hooks") {
		t.Errorf("hooks = 3: %v", err)
	}
}

// TestHookEnvHasNoSecrets: hooks start from baton's environment, sorted,
// less the API key, which reaches the endpoint and nothing else.
func TestHookEnvHasNoSecrets(t *testing.T) {
	got := HookEnv(map[string]string{"PATH": "/bin", "OPENAI_API_KEY": "sk-secret", "HOME": "/h"})
	if !slices.Equal(got, []string{"HOME=/h", "PATH=/bin"}) {
		t.Errorf("hook environment %q", got)
	}
}

// TestSkillNotices: a headless run names every skill that could not be
// loaded and every warning; the TUI counts the broken ones and points to
// /skills.
func TestSkillNotices(t *testing.T) {
	w := newConfigWorld(t, "", "")
	writeFile(t, filepath.Join(w.workspace, ".claude", "skills", "broken", "SKILL.md"), "no frontmatter\n")
	writeFile(t, filepath.Join(w.workspace, ".claude", "skills", "fine", "SKILL.md"), "---\nname: fine\ndescription: works\n---\nDo it.\n")
	cfg := w.loadAs(t, false)
	if got := SkillNotices(cfg.Skills, true); len(got) != 1 || !strings.Contains(got[0], "broken/SKILL.md") {
		t.Errorf("headless notices %q", got)
	}
	if got := SkillNotices(cfg.Skills, false); !slices.Equal(got, []string{"1 skill could not be loaded; /skills names them"}) {
		t.Errorf("TUI notices %q", got)
	}
	if got := SkillNotices(newConfigWorld(t, "", "").loadAs(t, false).Skills, false); got != nil {
		t.Errorf("no broken skill: %q", got)
	}
}
