package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/sandbox"
)

// TestKeyNotInAncestorsEnviron starts baton the way `make run`, `timeout`
// or a wrapper script does: under a shell that keeps the key in its own
// environment and stays alive above baton. The model's command walks
// every process above it reading their environments; in its own PID
// namespace it never reaches the shell, so the key is not found.
func TestKeyNotInAncestorsEnviron(t *testing.T) {
	if !sandbox.Available() {
		t.Skipf("this kernel has no Landlock (%s); commands are not sandboxed here", sandbox.Unavailable())
	}
	if !sandbox.Isolated() {
		t.Skip("the kernel refuses the namespaces (" + sandbox.IsolationProblem() + "); commands see other processes here")
	}
	srv := llmtest.NewServer(t, func(r *llmtest.Request, w *llmtest.Writer) {
		if r.Body.Messages[len(r.Body.Messages)-1].Role == "user" {
			args, _ := json.Marshal(map[string]string{"command": walkEnviron + "; ls /proc | grep -c '^[0-9]'"})
			w.ToolCalls(llmtest.Call{ID: "c1", Name: "run_command", Args: string(args)})
			return
		}
		w.Text("done")
	})
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"--yolo", "-p", "read the environments", "--output-format", "json"}
	// `; true` keeps sh alive above baton instead of letting it exec.
	cmd := exec.Command("env", "OPENAI_API_KEY=sk-proc-environ-4242", "sh", "-c", `"$0" -test.run='^$'; true`, self)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "XDG_STATE_HOME=", "OPENAI_BASE_URL="+srv.URL,
		childArgsEnv+"="+strings.Join(args, "\x1f"))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("baton failed: %v\n%s", err, out)
	}
	var tool string
	for _, m := range srv.Requests()[len(srv.Requests())-1].Body.Messages {
		if m.Role == "tool" {
			tool = m.Content
		}
	}
	if strings.Contains(tool, "LEAK") || !strings.Contains(tool, "walked 1\n") {
		t.Errorf("the command walked out of its namespace or found the key: %q", tool)
	}
}
