package config

import (
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
