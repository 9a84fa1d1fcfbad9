package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/permission"
	"github.com/seed-e4e525a6/baton/engine/sandbox"
)

// runShell runs a !command and collects its events up to TurnEnded.
func runShell(t *testing.T, s *Session, command string) *turnLog {
	t.Helper()
	if err := s.RunShell(command); err != nil {
		t.Fatalf("RunShell: %v", err)
	}
	return readTurn(t, s, func(event.Event) {})
}

// shellResult is the one call a !command shows.
func shellResult(t *testing.T, log *turnLog) event.ToolFinished {
	t.Helper()
	fin := eventsOf[event.ToolFinished](log)
	if len(fin) != 1 {
		t.Fatalf("%d calls shown, want 1", len(fin))
	}
	return fin[0]
}

// A !command runs without a card, shows as the person's prompt and call
// with its output, and reaches the model with the next prompt.
func TestShellCommandRunsAndTheModelSeesIt(t *testing.T) {
	var lastReq *llmtest.Request
	s, _ := newTestSession(t, func(req *llmtest.Request, w *llmtest.Writer) {
		lastReq = req
		w.Text("I see it")
	}, func(c *Config) { c.Mode = permission.Ask })
	writeFile(t, s.Workspace(), "hello.txt", "hello from the file\n")
	log := runShell(t, s, "cat hello.txt")
	if started := eventsOf[event.TurnStarted](log); len(started) != 1 || started[0].Prompt != "!cat hello.txt" {
		t.Errorf("shown as %+v", started)
	}
	if len(eventsOf[event.ApprovalRequested](log)) != 0 {
		t.Error("the person's own command asked for approval")
	}
	if res := shellResult(t, log); res.IsError || !strings.Contains(res.Output, "hello from the file") || !strings.HasPrefix(res.CallID, personCallPrefix) {
		t.Errorf("the call: %+v", res)
	}
	runTurn(t, s, "what did it print?", nil)
	var seen bool
	for _, m := range lastReq.Body.Messages {
		if m.Role == "user" && strings.Contains(m.Content, "$ cat hello.txt") && strings.Contains(m.Content, "hello from the file") {
			seen = true
		}
	}
	if !seen {
		t.Errorf("the model was not told of the command and its output: %+v", lastReq.Body.Messages)
	}
}

// Deny rules hold for the person's commands too, seen through a wrapper;
// the blocklist refuses what it always refuses; and a busy session
// refuses a second job.
func TestShellCommandMeetsDenyRulesAndTheBlocklist(t *testing.T) {
	s, _ := newTestSession(t, func(req *llmtest.Request, w *llmtest.Writer) { w.Text("ok") }, func(c *Config) {
		c.Mode = permission.Yolo // even so
		c.Rules = []event.PermissionRule{{Kind: "deny", Rule: "run_command(rm:*)", Source: event.SourceUser}}
	})
	victim := filepath.Join(s.Workspace(), "keep.txt")
	writeFile(t, s.Workspace(), "keep.txt", "keep\n")
	res := shellResult(t, runShell(t, s, "timeout 5 rm keep.txt"))
	if !res.IsError || !strings.Contains(res.Output, "deny run_command(rm:*)") {
		t.Errorf("a denied command: %+v", res)
	}
	if _, err := os.Stat(victim); err != nil {
		t.Errorf("the denied command ran: %v", err)
	}
	res = shellResult(t, runShell(t, s, ":(){ :|:& };:"))
	if !res.IsError || !strings.Contains(res.Output, "fork bomb") {
		t.Errorf("a blocklisted command: %+v", res)
	}
	if err := s.RunShell("   "); err == nil {
		t.Error("an empty command was taken")
	}
}

// The person's commands run in the main agent's sandbox: under a
// read-only one a write into the workspace fails.
func TestShellCommandRunsInTheSandbox(t *testing.T) {
	if !sandbox.Available() {
		t.Skip("this kernel has no Landlock")
	}
	s, _ := newTestSession(t, func(req *llmtest.Request, w *llmtest.Writer) { w.Text("ok") }, func(c *Config) {
		c.Sandbox = sandbox.Settings{Mode: sandbox.ReadOnly, Env: map[string]string{"HOME": t.TempDir(), "TMPDIR": t.TempDir()}}.Policy(c.Workspace)
	})
	res := shellResult(t, runShell(t, s, "echo x > made.txt"))
	if _, err := os.Stat(filepath.Join(s.Workspace(), "made.txt")); err == nil {
		t.Fatalf("a read-only sandbox let the person's command write: %+v", res)
	}
}
