package hooks

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// realDir is the folder of hook configurations copied unmodified from
// npm packages (see testdata/real/README.md).
const realDir = "testdata/real"

// readReal parses one of the real hooks.json files.
func readReal(t *testing.T, pkg string) ([]Hook, []string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(realDir, pkg, "hooks", "hooks.json"))
	if err != nil {
		t.Fatal(err)
	}
	hooks, notes, err := ParseSettings(data, pkg, false)
	if err != nil {
		t.Fatal(err)
	}
	return hooks, notes
}

// TestRealConfigurations reads published configurations: the hooks baton
// runs come out with their events and matchers, and what it cannot run
// (other events, prompt and agent hooks) is named, not fatal.
func TestRealConfigurations(t *testing.T) {
	selfish, notes := readReal(t, "selfish-pipeline@1.3.0")
	var events []string
	for _, h := range selfish {
		events = append(events, string(h.Event)+" "+h.Matcher)
	}
	for _, want := range []string{"PreToolUse Bash", "PostToolUse Edit|MultiEdit|Write", "SessionStart startup|resume|compact", "SubagentStop ", "Stop ", "Notification idle_prompt|permission_prompt"} {
		if !slices.Contains(events, want) {
			t.Errorf("selfish hooks %q lack %q", events, want)
		}
	}
	text := strings.Join(notes, "\n")
	for _, want := range []string{"no PostToolUseFailure event", "no TaskCompleted event", `type "agent" hooks are not run`} {
		if !strings.Contains(text, want) {
			t.Errorf("notes %q lack %q", text, want)
		}
	}
	canary, _ := readReal(t, "@coo-quack/sensitive-canary@0.8.1")
	pre := canary[slices.IndexFunc(canary, func(h Hook) bool { return h.Event == PreToolUse })]
	for tool, want := range map[string]bool{"read_file": true, "run_command": true, "grep": true, "mcp__github__create_issue": true, "edit_file": false, "list_files": false} {
		if got := pre.matches(Input{Event: PreToolUse, Tool: tool}); got != want {
			t.Errorf("canary's matcher %q on %s: %v, want %v", pre.Matcher, tool, got, want)
		}
	}
	ecc, _ := readReal(t, "ecc-universal@2.0.0")
	if len(ecc) < 10 {
		t.Errorf("ecc's configuration gave %d hooks", len(ecc))
	}
}

// TestMatchers compares matchers with baton's names and Claude Code's.
func TestMatchers(t *testing.T) {
	cases := []struct {
		matcher string
		tool    string
		want    bool
	}{
		{"Bash", "run_command", true},
		{"run_command", "run_command", true},
		{"Bash", "read_file", false},
		{"Edit|Write", "edit_file", true},
		{"Edit|Write", "write_file", true},
		{"Edit|Write", "read_file", false},
		{"MultiEdit", "edit_file", true},
		{"Task", "task", true},
		{"Agent", "task", true},
		{"mcp__github__.*", "mcp__github__create_issue", true},
		{"mcp__github__.*", "mcp__gitlab__x", false},
		{"", "grep", true},
		{"*", "web_fetch", true},
		{"WebFetch", "web_fetch", true},
		{"Glob", "find_files", true},
	}
	for _, tc := range cases {
		h := Hook{Event: PreToolUse, Matcher: tc.matcher}
		if err := h.compile(); err != nil {
			t.Fatal(err)
		}
		if got := h.matches(Input{Event: PreToolUse, Tool: tc.tool}); got != tc.want {
			t.Errorf("matcher %q on %s: %v, want %v", tc.matcher, tc.tool, got, tc.want)
		}
	}
	sub := Hook{Event: SubagentStop, Matcher: "explore"}
	_ = sub.compile()
	if !sub.matches(Input{Event: SubagentStop, AgentType: "explore"}) || sub.matches(Input{Event: SubagentStop, AgentType: "plan"}) {
		t.Error("a SubagentStop matcher compares the child's type")
	}
}

// TestInputSpeaksClaudeCode: a hook sees Claude Code's tool names and
// field names, absolute paths, and a child's identity.
func TestInputSpeaksClaudeCode(t *testing.T) {
	in := Input{Event: PreToolUse, SessionID: "s1", Cwd: "/w", Tool: "edit_file", ToolUseID: "call_1",
		ToolInput: `{"path":"a/b.go","old_string":"x","new_string":"y"}`, AgentID: "explore-1", AgentType: "explore"}
	var got map[string]any
	if err := json.Unmarshal(in.JSON(), &got); err != nil {
		t.Fatal(err)
	}
	ti, _ := got["tool_input"].(map[string]any)
	if got["tool_name"] != "Edit" || ti["file_path"] != "/w/a/b.go" || ti["old_string"] != "x" || ti["new_string"] != "y" ||
		got["hook_event_name"] != "PreToolUse" || got["agent_id"] != "explore-1" || got["agent_type"] != "explore" || got["session_id"] != "s1" {
		t.Errorf("input %v", got)
	}
	bash := Input{Event: PostToolUse, Tool: "run_command", ToolInput: `{"command":"go test","timeout_s":5}`, ToolResponse: "ok"}
	got = nil
	_ = json.Unmarshal(bash.JSON(), &got)
	ti, _ = got["tool_input"].(map[string]any)
	resp, _ := got["tool_response"].(map[string]any)
	if got["tool_name"] != "Bash" || ti["command"] != "go test" || ti["timeout"] != 5000.0 || resp["stdout"] != "ok" {
		t.Errorf("input %v", got)
	}
	if _, main := got["agent_id"]; main {
		t.Error("the main agent's input names an agent")
	}
}

// script is a hook running body under bash.
func script(ev Event, body string, timeout time.Duration) Hook {
	h := Hook{Event: ev, Command: body, Timeout: timeout, Source: "test"}
	_ = h.compile()
	return h
}

// TestProtocol runs real processes: exit 2 blocks with stderr, JSON
// decides and adds context, and the environment names the project.
func TestProtocol(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	pre := Input{Event: PreToolUse, Tool: "run_command", ToolInput: `{"command":"rm -rf /tmp/x"}`}
	block := NewRunner([]Hook{script(PreToolUse, `grep -q '"command":"rm -rf' && { echo "no rm -rf here" >&2; exit 2; }; exit 0`, 0)}, dir, nil)
	if out := block.Run(ctx, pre); !out.Block || out.Decision != Deny || out.Reason != "no rm -rf here" {
		t.Errorf("exit 2: %+v", out)
	}
	deny := NewRunner([]Hook{script(PreToolUse, `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"not today"}}'`, 0)}, dir, nil)
	if out := deny.Run(ctx, pre); out.Decision != Deny || out.Reason != "not today" {
		t.Errorf("deny: %+v", out)
	}
	ctxHook := NewRunner([]Hook{script(PostToolUse, `printf '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"dir is %s"}}' "$CLAUDE_PROJECT_DIR"`, 0)}, dir, nil)
	out := ctxHook.Run(ctx, Input{Event: PostToolUse, Tool: "read_file"})
	if out.Block || out.Decision != "" || len(out.Context) != 1 || out.Context[0] != "dir is "+dir {
		t.Errorf("context: %+v", out)
	}
	stop := NewRunner([]Hook{script(Stop, `echo '{"continue":false,"stopReason":"enough","systemMessage":"bye"}'`, 0)}, dir, nil)
	if out := stop.Run(ctx, Input{Event: Stop}); !out.Stop || out.StopReason != "enough" || !slices.Equal(out.Messages, []string{"bye"}) {
		t.Errorf("continue false: %+v", out)
	}
	plain := NewRunner([]Hook{script(UserPromptSubmit, `echo "today is a holiday"`, 0)}, dir, nil)
	if out := plain.Run(ctx, Input{Event: UserPromptSubmit, Prompt: "hi"}); !slices.Equal(out.Context, []string{"today is a holiday"}) {
		t.Errorf("plain stdout at UserPromptSubmit: %+v", out)
	}
}

// TestBadHooksReportedOnce: a hook that hangs is killed at its timeout
// with whatever it started, one that crashes or prints garbage blocks
// nothing; each is reported the first time only, and /hooks keeps what
// it did last.
func TestBadHooksReportedOnce(t *testing.T) {
	dir := t.TempDir()
	r := NewRunner([]Hook{
		script(PreToolUse, `sleep 60 & sleep 60`, 200*time.Millisecond),
		script(PreToolUse, `echo '{"decision": ' ; exit 0`, 0),
		script(PreToolUse, `echo boom >&2; exit 1`, 0),
		script(PreToolUse, `head -c 1000000 /dev/zero | tr '\0' x`, 0),
	}, dir, nil)
	in := Input{Event: PreToolUse, Tool: "grep"}
	first := r.Run(context.Background(), in)
	if first.Block || first.Decision != "" || len(first.Problems) != 3 {
		t.Fatalf("first run: %+v", first)
	}
	text := strings.Join(first.Problems, "\n")
	for _, want := range []string{"timed out after 200ms; killed", "printed JSON baton cannot read", "exited 1: boom"} {
		if !strings.Contains(text, want) {
			t.Errorf("problems %q lack %q", text, want)
		}
	}
	if again := r.Run(context.Background(), in); len(again.Problems) != 0 {
		t.Errorf("reported again: %q", again.Problems)
	}
	st := r.Status()
	if st[0].Runs != 2 || !strings.Contains(st[0].Last, "timed out") || len(st[3].Output) > 300 {
		t.Errorf("status %+v", st)
	}
}

// TestRealBashGuard runs selfish-pipeline's published PreToolUse guard
// (bash and jq) on baton's input: it reads tool_input.command under
// Claude Code's name and denies a force push while its pipeline is on.
func TestRealBashGuard(t *testing.T) {
	project := t.TempDir()
	if err := os.MkdirAll(filepath.Join(project, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(project, ".claude", ".selfish-active"), []byte("login\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	root, _ := filepath.Abs(filepath.Join(realDir, "selfish-pipeline@1.3.0"))
	hooks, _ := readReal(t, "selfish-pipeline@1.3.0")
	r := NewRunner(hooks, project, append(os.Environ(), "CLAUDE_PLUGIN_ROOT="+root))
	push := r.Run(context.Background(), Input{Event: PreToolUse, Tool: "run_command", ToolInput: `{"command":"git push --force origin main"}`})
	if push.Decision != Deny || !strings.Contains(push.Reason, "SELFISH GUARD: git push --force is blocked") {
		t.Errorf("force push: %+v", push)
	}
	ls := r.Run(context.Background(), Input{Event: PreToolUse, Tool: "run_command", ToolInput: `{"command":"ls"}`})
	if ls.Decision != Allow || ls.Block {
		t.Errorf("ls: %+v", ls)
	}
}

// TestInterruptedHookIsNotAProblem: a hook stopped because the person
// interrupted is killed, and not reported as a failure of the hook.
func TestInterruptedHookIsNotAProblem(t *testing.T) {
	r := NewRunner([]Hook{script(PreToolUse, `sleep 60`, 0)}, t.TempDir(), nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if out := r.Run(ctx, Input{Event: PreToolUse, Tool: "grep"}); len(out.Problems) != 0 || out.Block {
		t.Errorf("interrupted: %+v", out)
	}
	if st := r.Status(); !strings.Contains(st[0].Last, "stopped") {
		t.Errorf("status %+v", st)
	}
}

// TestDeeplyNestedSettingsAreNotParsed: a repository's settings file
// nested past the bound is refused with a notice before the JSON reader
// sees it, while every published configuration passes the bound.
func TestDeeplyNestedSettingsAreNotParsed(t *testing.T) {
	ws := t.TempDir()
	deep := `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true", "x": ` +
		strings.Repeat(`{"a": `, 40) + "1" + strings.Repeat("}", 40) + "}]}]}}"
	if err := os.MkdirAll(filepath.Join(ws, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, ".claude", "settings.json"), []byte(deep), 0o600); err != nil {
		t.Fatal(err)
	}
	f := Discover("", ws)
	if len(f.Project) != 0 || len(f.Notices) != 1 || !strings.Contains(f.Notices[0], ".claude/settings.json: nested deeper than 16 levels (line 1); its hooks are not run") {
		t.Fatalf("hooks %v, notices %q", f.Project, f.Notices)
	}
	files, err := filepath.Glob(filepath.Join(realDir, "*", "hooks", "hooks.json"))
	scoped, err2 := filepath.Glob(filepath.Join(realDir, "@*", "*", "hooks", "hooks.json"))
	if err != nil || err2 != nil || len(files)+len(scoped) < 3 {
		t.Fatalf("real configurations: %v %v %v", files, scoped, err)
	}
	for _, file := range append(files, scoped...) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(ws, ".claude", "settings.json"), data, 0o600); err != nil {
			t.Fatal(err)
		}
		if f := Discover("", ws); len(f.Project) == 0 || slices.ContainsFunc(f.Notices, func(n string) bool { return strings.Contains(n, "nested") }) {
			t.Errorf("%s: hooks %d, notices %q", file, len(f.Project), f.Notices)
		}
	}
}
