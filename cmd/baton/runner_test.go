package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

// TestHeadlessChildInAProcess: with [subagents] runner = "process" a
// headless run delegates to a child that runs as a baton child process
// (the hidden subcommand of this very binary), and the answer is the same.
func TestHeadlessChildInAProcess(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, func(req *llmtest.Request, w *llmtest.Writer) {
		switch {
		case !strings.Contains(strings.Join(req.ToolNames(), ","), "task"):
			w.Text("FOUND-IT in auth.go")
		case req.HasToolResult("FOUND-IT"):
			w.Text("The explorer found it.")
		default:
			w.ToolCalls(llmtest.Call{Name: "task", Args: `{"description":"find auth","prompt":"find the auth code","subagent_type":"explore"}`})
		}
	})
	config := t.TempDir()
	writeFile(t, filepath.Join(config, "baton", "config.toml"), "[subagents]\nrunner = \"process\"\n")
	r := runIn(t, context.Background(), []string{"OPENAI_BASE_URL=" + srv.URL, "XDG_CONFIG_HOME=" + config}, "",
		"-p", "find auth", "--allow", "task", "--output-format", "json")
	var res struct {
		Result     string `json:"result"`
		Transcript string `json:"transcript"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil || r.code != exitOK || res.Result != "The explorer found it." {
		t.Fatalf("exit %d, %v, stdout %s\nstderr: %s", r.code, err, r.stdout, r.stderr)
	}
	// The transcript says where the child ran.
	record, err := os.ReadFile(res.Transcript)
	if err != nil || !strings.Contains(string(record), `"runner":"process"`) {
		t.Fatalf("the transcript does not say the child ran in a process (%v):\n%s", err, record)
	}
}
