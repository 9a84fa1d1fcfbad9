package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/sandbox"
)

// TestAllowSocketsFromTheUserConfig runs baton on a model that asks two
// tmux servers outside the workspace to run a command for it: the
// person's own, and one the person listed in [sandbox] allow_sockets.
// Only the listed one is reached.
func TestAllowSocketsFromTheUserConfig(t *testing.T) {
	if !sandbox.Available() {
		t.Skipf("this kernel has no Landlock (%s)", sandbox.Unavailable())
	}
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not installed")
	}
	outside, home := t.TempDir(), t.TempDir()
	mine, listed := filepath.Join(outside, "mine.sock"), filepath.Join(outside, "listed.sock")
	for _, sock := range []string{mine, listed} {
		if out, err := exec.Command(tmux, "-S", sock, "-f", "/dev/null", "new-session", "-d", "sleep 600").CombinedOutput(); err != nil {
			t.Skipf("cannot start a tmux server: %v %s", err, out)
		}
		t.Cleanup(func() { _ = exec.Command(tmux, "-S", sock, "kill-server").Run() })
	}
	config := filepath.Join(home, ".config", "baton", "config.toml")
	if err := os.MkdirAll(filepath.Dir(config), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(config, []byte("[sandbox]\nallow_sockets = [\""+listed+"\"]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	pwnedMine, pwnedListed := filepath.Join(outside, "via-mine"), filepath.Join(outside, "via-listed")
	script := tmux + " -S " + mine + " run-shell 'touch " + pwnedMine + "'; " + tmux + " -S " + listed + " run-shell 'touch " + pwnedListed + "'"
	srv := llmtest.NewServer(t, func(r *llmtest.Request, w *llmtest.Writer) {
		if r.Body.Messages[len(r.Body.Messages)-1].Role == "user" {
			args, _ := json.Marshal(map[string]string{"command": script})
			w.ToolCalls(llmtest.Call{ID: "c1", Name: "run_command", Args: string(args)})
			return
		}
		w.Text("done")
	})
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, "-test.run=^$")
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME=", "XDG_STATE_HOME=", "OPENAI_API_KEY=sk-test",
		"OPENAI_BASE_URL="+srv.URL, childArgsEnv+"="+strings.Join([]string{"--yolo", "-p", "use tmux"}, "\x1f"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("baton failed: %v\n%s", err, out)
	}
	if _, err := os.Stat(pwnedMine); err == nil {
		t.Error("the person's own tmux server ran the model's command")
	}
	if _, err := os.Stat(pwnedListed); err != nil {
		t.Errorf("the tmux server listed in allow_sockets was not reached: %v", err)
	}
}
