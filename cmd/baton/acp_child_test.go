package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	tomlenc "github.com/BurntSushi/toml"

	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

// TestBatonRunsBatonAsAnACPChild: a headless baton delegates to an agent
// type whose [agents.inner] table in the person's config runs `baton
// acp` (this very binary) as an ACP child. The inner baton has its own endpoint and key, from the agent
// file's env, and none of the person's; its edit is asked about under the
// outer baton's rules and hooks and lands through the outer baton's fs/*;
// it reads through them too; its last message is the child's result.
func TestBatonRunsBatonAsAnACPChild(t *testing.T) {
	t.Parallel()
	var innerKeys []string
	var keysMu sync.Mutex
	inner := llmtest.NewServer(t, func(req *llmtest.Request, w *llmtest.Writer) {
		keysMu.Lock()
		innerKeys = append(innerKeys, req.Header.Get("Authorization"))
		keysMu.Unlock()
		results := toolResultsOf(req)
		switch len(results) {
		case 0:
			w.ToolCalls(llmtest.Call{ID: "w1", Name: "write_file", Args: `{"path":"note.txt","content":"from the inner baton\n"}`})
		case 1:
			w.ToolCalls(llmtest.Call{ID: "r1", Name: "read_file", Args: `{"path":"main.go"}`})
		default:
			w.Text("INNER-SAYS I wrote note.txt; main.go reads: " + strings.Join(results, " | "))
		}
	})
	outer := llmtest.NewServer(t, func(req *llmtest.Request, w *llmtest.Writer) {
		results := toolResultsOf(req)
		if len(results) == 0 {
			w.ToolCalls(llmtest.Call{ID: "t1", Name: "task", Args: `{"description":"ask the inner baton","prompt":"write a note, then read main.go","subagent_type":"inner"}`})
			return
		}
		w.Text("outer got: " + results[0])
	})
	config, innerHome := t.TempDir(), t.TempDir()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// The agent is defined in the person's config.toml, and a
	// PreToolUse hook there sees the inner baton's edit as it sees a
	// write_file of baton's own.
	hookLog := filepath.Join(t.TempDir(), "hook.log")
	var toml strings.Builder
	if err := tomlenc.NewEncoder(&toml).Encode(map[string]any{
		"agents": map[string]any{"inner": map[string]any{
			"description": "another baton, over ACP", "prompt": "You are the inner baton.",
			"acp": map[string]any{"command": self, "args": []string{"-test.run=^$"}, "env": map[string]string{
				childArgsEnv: "acp", "OPENAI_BASE_URL": inner.URL, "OPENAI_API_KEY": "sk-the-inner-batons-own-key",
				"HOME": innerHome, "XDG_CONFIG_HOME": filepath.Join(innerHome, ".config"), "XDG_STATE_HOME": filepath.Join(innerHome, ".state")}},
		}},
		"hooks": map[string]any{"PreToolUse": []any{map[string]any{"matcher": "Write",
			"hooks": []any{map[string]any{"type": "command", "command": "cat >> " + hookLog}}}}},
	}); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(config, "baton", "config.toml"), toml.String())
	r := runIn(t, context.Background(), []string{"OPENAI_BASE_URL=" + outer.URL, "OPENAI_API_KEY=" + personsKey, "XDG_CONFIG_HOME=" + config}, "",
		"-p", "delegate to the inner baton", "--allow", "task", "--allow", "write_file(note.txt)", "--output-format", "json")
	var res struct {
		Result string `json:"result"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil || r.code != exitOK {
		t.Fatalf("exit %d, %v, stdout %s\nstderr: %s", r.code, err, r.stdout, r.stderr)
	}
	if !strings.HasPrefix(res.Result, "outer got: INNER-SAYS I wrote note.txt; main.go reads: ") || !strings.Contains(res.Result, "package main") {
		t.Errorf("the outer baton's answer: %q", res.Result)
	}
	if data, err := os.ReadFile(filepath.Join(r.workspace, "note.txt")); err != nil || string(data) != "from the inner baton\n" {
		t.Errorf("note.txt: %q, %v\nresult %s\nstderr %s", data, err, res.Result, r.stderr)
	}
	if log, err := os.ReadFile(hookLog); err != nil || !strings.Contains(string(log), `"tool_name":"Write"`) || !strings.Contains(string(log), "note.txt") {
		t.Errorf("the PreToolUse hook did not see the inner baton's edit: %q, %v", log, err)
	}
	keysMu.Lock()
	defer keysMu.Unlock()
	if len(innerKeys) != 3 {
		t.Errorf("the inner endpoint got %d requests, want 3", len(innerKeys))
	}
	for _, k := range innerKeys {
		if k != "Bearer sk-the-inner-batons-own-key" {
			t.Errorf("the inner baton sent Authorization %q, not its own key", k)
		}
	}
}

// toolResultsOf are the tool results a request carries, in order.
func toolResultsOf(req *llmtest.Request) []string {
	var out []string
	for _, m := range req.Body.Messages {
		if m.Role == "tool" {
			out = append(out, m.Content)
		}
	}
	return out
}
