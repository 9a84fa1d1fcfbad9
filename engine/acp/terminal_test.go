package acp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/sandbox"
)

// runOnce scripts a model that runs one command, then reports its
// result.
func runOnce(command string) llmtest.Responder {
	return func(req *llmtest.Request, w *llmtest.Writer) {
		if results := toolResults(req); len(results) > 0 {
			w.Text("ran: " + results[0])
			return
		}
		args, _ := json.Marshal(map[string]string{"command": command})
		w.ToolCalls(llmtest.Call{ID: "r1", Name: "run_command", Args: string(args)})
	}
}

func TestCommandRunsInTheEditorsTerminalUnderTheSandbox(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-test-terminal-secret")
	r := newRig(t, runOnce(`echo "in-terminal $PWD"; echo "key=${OPENAI_API_KEY:-none}"`))
	r.caps = map[string]any{"terminal": true}
	session := r.newSession()
	r.mustPrompt(session, "run it")

	if n := r.client.Requests("terminal/create"); n != 1 {
		t.Fatalf("%d terminals; want the command in the editor's", n)
	}
	r.mu.Lock()
	cmd := r.terminals["term-1"]
	r.mu.Unlock()
	self, _ := os.Executable()
	if cmd.Path != self || len(cmd.Args) < 2 || cmd.Args[1] != "__baton_sandbox_terminal" {
		t.Errorf("the terminal ran %q %q; want baton's sandbox stage", cmd.Path, cmd.Args)
	}
	results := toolResults(r.llm.Requests()[1])
	ws, _ := filepath.EvalSymlinks(r.ws)
	if len(results) != 1 || !strings.Contains(results[0], "in-terminal "+ws) || !strings.Contains(results[0], "key=none") {
		t.Errorf("the model got %q", results)
	}
	var shown, kept bool
	for _, u := range toolUpdates(r.client.Updates()) {
		for _, c := range u.Content {
			if c.Type == "terminal" && c.TerminalID == "term-1" {
				shown = shown || u.Status == "in_progress"
				kept = kept || u.Status == "completed"
			}
		}
	}
	if !shown || !kept {
		t.Errorf("the terminal was not shown under its call while running (%v) or after (%v)", shown, kept)
	}
}

func TestTerminalCommandCannotWriteOutsideTheWorkspace(t *testing.T) {
	if !sandbox.Available() {
		t.Skipf("this kernel has no Landlock (%s); the sandbox cannot be tested here", sandbox.Unavailable())
	}
	var target string // set before the prompt, read by the model's script
	r := newRig(t, func(req *llmtest.Request, w *llmtest.Writer) { runOnce("echo escaped > "+target)(req, w) })
	target = filepath.Join(r.root, "outside", "escaped.txt")
	r.caps = map[string]any{"terminal": true}
	session := r.newSession()
	r.mustPrompt(session, "run it")
	if _, err := os.Stat(target); !os.IsNotExist(err) {
		t.Fatalf("a command in the editor's terminal wrote outside the workspace (stat: %v)", err)
	}
	results := toolResults(r.llm.Requests()[1])
	if len(results) != 1 || !strings.Contains(results[0], "exit status") {
		t.Errorf("the model got %q; want the failed write's status", results)
	}
}
