package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

// TestRunUntrustedProjectHooksNotRun: a cloned repository's hooks
// (.claude/settings.json, .claude/settings.local.json, [hooks] in
// .baton/config.toml) are code execution: untrusted, none runs and
// stderr says so; trusted (--trust), they run. The person's own hook in
// ~/.claude/settings.json runs either way, with CLAUDE_PROJECT_DIR and
// without the API key.
func TestRunUntrustedProjectHooksNotRun(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, func(_ *llmtest.Request, w *llmtest.Writer) { w.Text("hi") })
	home, ws, marks := t.TempDir(), t.TempDir(), t.TempDir()
	touch := func(name string) string {
		return `{"hooks":[{"type":"command","command":"touch ` + filepath.Join(marks, name) + `"}]}`
	}
	writeFile(t, filepath.Join(ws, ".claude", "settings.json"), `{"hooks":{"UserPromptSubmit":[`+touch("settings")+`]}}`)
	writeFile(t, filepath.Join(ws, ".claude", "settings.local.json"), `{"hooks":{"SessionStart":[`+touch("local")+`]}}`)
	writeFile(t, filepath.Join(ws, ".baton", "config.toml"), "[[hooks.UserPromptSubmit]]\n[[hooks.UserPromptSubmit.hooks]]\ntype = \"command\"\ncommand = \"touch "+filepath.Join(marks, "config")+"\"\n")
	writeFile(t, filepath.Join(home, ".claude", "settings.json"),
		`{"hooks":{"UserPromptSubmit":[{"hooks":[{"type":"command","command":"env > `+filepath.Join(marks, "user-env")+`"}]}]}}`)
	env := []string{"XDG_STATE_HOME=" + t.TempDir(), "OPENAI_BASE_URL=" + srv.URL, "OPENAI_API_KEY=sk-hook-must-not-see-0123456789"}

	r := runAt(t, ws, home, env, "-p", "hello")
	if r.code != exitOK {
		t.Fatalf("exit %d\nstderr: %s", r.code, r.stderr)
	}
	for _, name := range []string{"settings", "local", "config"} {
		if _, err := os.Stat(filepath.Join(marks, name)); err == nil {
			t.Errorf("the untrusted project's %s hook ran", name)
		}
	}
	want := ".claude/settings.json, .claude/settings.local.json, .baton/config.toml: 3 hooks not run: this folder is not trusted"
	if !strings.Contains(r.stderr, want) {
		t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
	}
	userEnv, err := os.ReadFile(filepath.Join(marks, "user-env"))
	if err != nil {
		t.Fatalf("the person's own hook did not run: %v", err)
	}
	if strings.Contains(string(userEnv), "sk-hook-must-not-see") || !strings.Contains(string(userEnv), "CLAUDE_PROJECT_DIR=") {
		t.Errorf("the hook's environment:\n%s", userEnv)
	}

	r = runAt(t, ws, home, env, "-p", "hello", "--trust")
	if r.code != exitOK {
		t.Fatalf("--trust: exit %d\nstderr: %s", r.code, r.stderr)
	}
	for _, name := range []string{"settings", "local", "config"} {
		if _, err := os.Stat(filepath.Join(marks, name)); err != nil {
			t.Errorf("--trust: the project's %s hook did not run", name)
		}
	}
}
