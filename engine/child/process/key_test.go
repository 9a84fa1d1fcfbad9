package process_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/permission"
)

// TestKeyReachesAChildProcessOnlyThroughItsSpec: baton's environment holds
// the key (as Go's copy of it does after the key was scrubbed from
// /proc), yet a child process has it neither in its arguments nor in its
// environment, and neither do the commands it runs; the key still
// reaches the endpoint from the child.
func TestKeyReachesAChildProcessOnlyThroughItsSpec(t *testing.T) {
	const key = "sk-child-key-7731"
	t.Setenv("OPENAI_API_KEY", key)
	var childAuth, childArgs, childEnv, commandOut string
	srv := llmtest.NewServer(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case isChild(r) && len(toolResults(r)) == 0:
			childAuth = r.Header.Get("Authorization")
			pid := childProcess("general-purpose-1")
			args, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
			env, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "environ"))
			childArgs, childEnv = string(args), string(env)
			w.ToolCalls(llmtest.Call{ID: "c", Name: "run_command", Args: `{"command":"env; cat /proc/$$/environ | tr '\\0' '\\n'"}`})
		case isChild(r):
			commandOut = toolResults(r)[0]
			w.Text("looked")
		case len(toolResults(r)) == 0:
			w.ToolCalls(llmtest.Call{ID: "t", Name: child.TaskToolName, Args: `{"description":"look","prompt":"look around","subagent_type":"general-purpose"}`})
		default:
			w.Text("done")
		}
	})
	endpoint := llm.Config{APIKey: key, BaseURL: srv.URL}
	s, err := engine.NewSession(context.Background(), engine.Config{Client: llm.NewClient(endpoint), Endpoint: endpoint, Model: "m",
		Workspace: t.TempDir(), Mode: permission.Yolo, Runner: child.RunnerProcess})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var finished []event.AgentFinished
	watch(t, s, "go", func(ev event.Event) {
		if f, ok := ev.(event.AgentFinished); ok {
			finished = append(finished, f)
		}
	})
	if len(finished) != 1 || finished[0].Status != event.StatusCompleted {
		t.Fatalf("finished %+v", finished)
	}
	if childAuth != "Bearer "+key {
		t.Fatalf("the child's request carried %q, not the key", childAuth)
	}
	if !strings.Contains(childArgs, child.RunnerProcess) && !strings.Contains(childArgs, "__child") {
		t.Fatalf("no child process was found (arguments %q)", childArgs)
	}
	for what, text := range map[string]string{"arguments": childArgs, "environment": childEnv, "command's output": commandOut} {
		if strings.Contains(text, key) {
			t.Errorf("the child process's %s hold the key: %q", what, text)
		}
	}
	if !strings.Contains(commandOut, "PATH=") {
		t.Fatalf("the command did not print its environment: %q", commandOut)
	}
}
