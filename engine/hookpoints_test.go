package engine

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/hooks"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/permission"
)

// hookScript writes an executable bash script and returns its path.
func hookScript(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "hook.sh")
	if err := os.WriteFile(path, []byte("#!/bin/bash\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// withHooks configures hooks from a settings file's JSON, the way
// Claude Code's settings give them.
func withHooks(t *testing.T, settings string, env ...string) func(*Config) {
	t.Helper()
	list, notes, err := hooks.ParseSettings([]byte(settings), "test settings", false)
	if err != nil || len(notes) > 0 {
		t.Fatalf("hooks: %v %q", err, notes)
	}
	return func(c *Config) { c.Hooks, c.HookEnv = list, append(os.Environ(), env...) }
}

// onEvent is settings JSON with one command hook.
func onEvent(ev, matcher, command string, timeout float64) string {
	entry := map[string]any{"type": "command", "command": command}
	if timeout > 0 {
		entry["timeout"] = timeout
	}
	data, _ := json.Marshal(map[string]any{"hooks": map[string]any{ev: []any{map[string]any{"matcher": matcher, "hooks": []any{entry}}}}})
	return string(data)
}

// TestPreToolUseHookBlocksRmRf: a PreToolUse hook on Bash that exits 2
// for rm -rf stops the command (even with --yolo), and the model reads
// the hook's stderr.
func TestPreToolUseHookBlocksRmRf(t *testing.T) {
	guard := hookScript(t, `cmd=$(jq -r .tool_input.command)
case "$cmd" in *"rm -rf"*) echo "rm -rf is not allowed in this project" >&2; exit 2;; esac`)
	s, srv := newTestSession(t, stepScript(command("rm -rf build"), command("echo still here")), withHooks(t, onEvent("PreToolUse", "Bash", guard, 0)))
	writeFile(t, s.Workspace(), "build/out.o", "x")
	log := runTurn(t, s, "clean up", nil)
	if _, err := os.Stat(filepath.Join(s.Workspace(), "build/out.o")); err != nil {
		t.Fatalf("the hook did not stop rm -rf: %v", err)
	}
	results := toolMessages(srv.Requests()[len(srv.Requests())-1])
	contains(t, "blocked call's result", results[0], "blocked by a PreToolUse hook: rm -rf is not allowed in this project")
	contains(t, "next call's result", results[1], "still here")
	finished := eventsOf[event.ToolFinished](log)
	if !finished[0].IsError || finished[1].IsError {
		t.Errorf("finished %+v", finished)
	}
}

// TestHookAllowNeverOverridesDeny: a hook that allows everything lets a
// call run without a card, but a deny rule still stops rm.
func TestHookAllowNeverOverridesDeny(t *testing.T) {
	allow := hookScript(t, `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"all fine"}}'`)
	s, srv := newTestSession(t, stepScript(command("echo allowed by the hook"), command("rm -f nothing")), func(c *Config) {
		withHooks(t, onEvent("PreToolUse", "Bash", allow, 0))(c)
		c.Mode = permission.Ask
		c.Rules = []event.PermissionRule{{Kind: "deny", Rule: "run_command(rm:*)", Source: "user config"}}
	})
	log := runTurn(t, s, "go", func(r *event.ApprovalRequest) event.Answer {
		t.Errorf("a card for %s %s", r.Tool, r.Args)
		return event.Answer{Decision: event.Deny}
	})
	results := toolMessages(srv.Requests()[len(srv.Requests())-1])
	contains(t, "hook-allowed call", results[0], "allowed by the hook")
	contains(t, "denied call", results[1], "denied by the rule deny run_command(rm:*)")
	var notices []string
	for _, n := range eventsOf[event.Notice](log) {
		notices = append(notices, n.Text)
	}
	contains(t, "notices", strings.Join(notices, "\n"), "PreToolUse hook: all fine")
}

// TestHookAddsContextOnly: a hook that decides nothing and only adds
// context leaves the call as the model made it and its result whole,
// with the context after it.
func TestHookAddsContextOnly(t *testing.T) {
	note := hookScript(t, `cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"This file is generated; edit gen.yaml instead."}}'`)
	s, srv := newTestSession(t, stepScript(llmtest.Call{Name: "read_file", Args: `{"path":"out.go"}`}), withHooks(t, onEvent("PostToolUse", "Read", note, 0)))
	writeFile(t, s.Workspace(), "out.go", "package out\n")
	runTurn(t, s, "look", nil)
	got := toolMessages(srv.Requests()[1])[0]
	if !strings.HasPrefix(strings.TrimSpace(got), "1\tpackage out") || !strings.HasSuffix(got, "\n\n[PostToolUse hook] This file is generated; edit gen.yaml instead.") {
		t.Errorf("result %q", got)
	}
}

// TestSubagentHooksSeeTheChild: SubagentStart adds context to the
// child's prompt; SubagentStop gets the child's id, type and last
// message, as Claude Code sends them.
func TestSubagentHooksSeeTheChild(t *testing.T) {
	out := filepath.Join(t.TempDir(), "stop.json")
	start := hookScript(t, `jq -r '"child " + .agent_id + " of type " + .agent_type' | jq -R '{hookSpecificOutput:{hookEventName:"SubagentStart",additionalContext:.}}'`)
	stop := hookScript(t, `cat > "`+out+`"`)
	settings := fmt.Sprintf(`{"hooks":{"SubagentStart":[{"hooks":[{"type":"command","command":%q}]}],"SubagentStop":[{"matcher":"explore","hooks":[{"type":"command","command":%q}]}]}}`, start, stop)
	var childPrompt string
	s, _ := newTestSession(t, delegateOnce(`{"description":"d","prompt":"Find it.","subagent_type":"explore"}`,
		func(r *llmtest.Request, w *llmtest.Writer) { childPrompt = r.LastUser(); w.Text("found it in a.go") }),
		withHooks(t, settings))
	log := runTurn(t, s, "go", nil)
	started := eventsOf[event.AgentStarted](log)
	if len(started) != 1 {
		t.Fatalf("%d children", len(started))
	}
	id := string(started[0].Agent)
	contains(t, "child's prompt", childPrompt, "[SubagentStart hook] child "+id+" of type explore")
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("SubagentStop hook did not run: %v", err)
	}
	var in map[string]any
	if err := json.Unmarshal(data, &in); err != nil {
		t.Fatal(err)
	}
	if in["hook_event_name"] != "SubagentStop" || in["agent_id"] != id || in["agent_type"] != "explore" ||
		in["last_assistant_message"] != "found it in a.go" || in["stop_hook_active"] != false || in["cwd"] != s.Workspace() {
		t.Errorf("SubagentStop input %s", data)
	}
}

// TestHangingHookIsBounded: a hook that never ends is killed at its
// timeout, the call goes on, and the person is told once, not per call.
func TestHangingHookIsBounded(t *testing.T) {
	t.Parallel() // waits out a real bound; overlaps the others that do
	s, srv := newTestSession(t, stepScript(command("echo one"), command("echo two")),
		withHooks(t, onEvent("PreToolUse", "Bash", "sleep 600", 0.2)))
	log := runTurn(t, s, "go", nil)
	results := toolMessages(srv.Requests()[len(srv.Requests())-1])
	contains(t, "first call", results[0], "one")
	contains(t, "second call", results[1], "two")
	reports := 0
	for _, n := range eventsOf[event.Notice](log) {
		if strings.Contains(n.Text, "timed out after 200ms; killed") {
			reports++
		}
	}
	if reports != 1 {
		t.Errorf("reported %d times", reports)
	}
	if st := s.HookStatus(); len(st) != 1 || st[0].Runs != 2 || !strings.Contains(st[0].Last, "timed out") {
		t.Errorf("status %+v", st)
	}
}

// TestUserPromptSubmitBlocks: a prompt a hook blocks never reaches the
// model, and the person is told why.
func TestUserPromptSubmitBlocks(t *testing.T) {
	block := hookScript(t, `grep -q password && { echo "prompts must not hold passwords" >&2; exit 2; }; exit 0`)
	s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) { w.Text("ok") }, withHooks(t, onEvent("UserPromptSubmit", "", block, 0)))
	log := runTurn(t, s, "my password is hunter2", nil)
	if log.End.Status != event.StatusDenied || len(srv.Requests()) != 0 {
		t.Fatalf("status %s after %d requests", log.End.Status, len(srv.Requests()))
	}
	runTurn(t, s, "hello", nil)
	if got := srv.Requests()[0].LastUser(); got != "hello" {
		t.Errorf("next prompt %q", got)
	}
}

// TestRealSelfishPipelineHooks runs a published hook configuration
// (selfish-pipeline@1.3.0, bash and jq, unmodified) through a session:
// its SessionStart and UserPromptSubmit context reach the model, its
// PostToolUse tracker reads file_path, its Bash guard denies a force
// push, and its Stop gate sends the agent on once (exit 2) and lets it
// stop when stop_hook_active says it already went on.
func TestRealSelfishPipelineHooks(t *testing.T) {
	root, _ := filepath.Abs("hooks/testdata/real/selfish-pipeline@1.3.0")
	data, err := os.ReadFile(filepath.Join(root, "hooks/hooks.json"))
	if err != nil {
		t.Fatal(err)
	}
	list, _, err := hooks.ParseSettings(data, "selfish hooks.json", false)
	if err != nil {
		t.Fatal(err)
	}
	respond := func(r *llmtest.Request, w *llmtest.Writer) {
		switch n := len(toolMessages(r)); {
		case n == 0:
			w.ToolCalls(llmtest.Call{ID: "c0", Name: "write_file", Args: `{"path":"login.go","content":"package login\n"}`})
		case n == 1:
			w.ToolCalls(llmtest.Call{ID: "c1", Name: "run_command", Args: `{"command":"git push --force origin main"}`})
		case strings.Contains(r.LastUser(), "SELFISH GATE"):
			w.Text("CI cannot run here; stopping.")
		default:
			w.Text("done")
		}
	}
	s, srv := newTestSession(t, respond, func(c *Config) {
		c.Hooks, c.HookEnv = list, append(os.Environ(), "CLAUDE_PLUGIN_ROOT="+root, "HOME="+t.TempDir())
		writeFile(t, c.Workspace, ".claude/.selfish-active", "login\n")
		writeFile(t, c.Workspace, ".claude/.selfish-phase", "implement\n")
	})
	runTurn(t, s, "implement login", nil)
	reqs := srv.Requests()
	first := reqs[0].LastUser()
	contains(t, "first prompt", first, "[SessionStart hook] [SELFISH PIPELINE ACTIVE] Feature: login")
	contains(t, "first prompt", first, "[UserPromptSubmit hook] [Pipeline: login] [Phase: implement]")
	changes, err := os.ReadFile(filepath.Join(s.Workspace(), ".claude/.selfish-changes.log"))
	if err != nil || strings.TrimSpace(string(changes)) != filepath.Join(s.Workspace(), "login.go") {
		t.Errorf("changes log %q, %v", changes, err)
	}
	contains(t, "force push result", toolMessages(reqs[2])[1], "SELFISH GUARD: git push --force is blocked during pipeline")
	if len(reqs) != 4 {
		t.Fatalf("%d requests: the Stop gate should send the agent on exactly once", len(reqs))
	}
	contains(t, "message after the Stop gate", reqs[3].LastUser(), "[Stop hook] SELFISH GATE: CI has not been run.")
}

// TestNotificationHookOnACard: a card waiting for the person runs the
// Notification hooks in the background, as Claude Code's permission
// prompt does; the card does not wait for them.
func TestNotificationHookOnACard(t *testing.T) {
	out := filepath.Join(t.TempDir(), "notification.json")
	s, _ := newTestSession(t, stepScript(command("echo hi")), func(c *Config) {
		withHooks(t, onEvent("Notification", "permission_prompt", `cat > "`+out+`"`, 0))(c)
		c.Mode = permission.Ask
	})
	runTurn(t, s, "go", nil)
	s.Close() // waits for the hook's run
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("the Notification hook did not run: %v", err)
	}
	var in map[string]any
	if err := json.Unmarshal(data, &in); err != nil {
		t.Fatal(err)
	}
	if in["hook_event_name"] != "Notification" || in["notification_type"] != "permission_prompt" || in["message"] != "baton needs your permission to use Bash" {
		t.Errorf("input %s", data)
	}
}
