package hooks

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every event's input carries the fields Claude Code's hooks read for
// it, and the matchers of those events compare what Claude Code's do.
func TestEveryEventSpeaksClaudeCode(t *testing.T) {
	cases := []struct {
		in      Input
		want    map[string]any
		matcher string
	}{
		{Input{Event: SessionStart, Source: "resume", Model: "gpt-4.1", PermissionMode: "plan"},
			map[string]any{"source": "resume", "model": "gpt-4.1", "permission_mode": "plan"}, "startup|resume"},
		{Input{Event: SessionEnd, Reason: "clear"}, map[string]any{"reason": "clear"}, "clear"},
		{Input{Event: PreCompact, Trigger: "manual", Instructions: "keep the API notes"},
			map[string]any{"trigger": "manual", "custom_instructions": "keep the API notes"}, "manual"},
		{Input{Event: PreCompact, Trigger: "auto"}, map[string]any{"trigger": "auto", "custom_instructions": nil}, "auto"},
		{Input{Event: Notification, Message: "baton needs your permission", NotificationType: "permission_prompt", Title: "baton"},
			map[string]any{"message": "baton needs your permission", "notification_type": "permission_prompt", "title": "baton"}, "permission_prompt"},
		{Input{Event: SubagentStart, AgentID: "explore-1", AgentType: "explore"}, map[string]any{"agent_id": "explore-1", "agent_type": "explore"}, "explore"},
		{Input{Event: PreToolUse, Tool: "grep", ToolInput: `{"pattern":"x","path":"src","ignore_case":true}`, Cwd: "/w"},
			map[string]any{"tool_name": "Grep", "tool_input": map[string]any{"pattern": "x", "path": "/w/src", "-i": true}}, "Grep"},
	}
	for _, c := range cases {
		var got map[string]any
		if err := json.Unmarshal(c.in.JSON(), &got); err != nil {
			t.Fatal(err)
		}
		if got["hook_event_name"] != string(c.in.Event) {
			t.Errorf("%s: hook_event_name %v", c.in.Event, got["hook_event_name"])
		}
		for k, v := range c.want {
			g, _ := json.Marshal(got[k])
			w, _ := json.Marshal(v)
			if _, present := got[k]; !present || string(g) != string(w) {
				t.Errorf("%s: %s = %s, want %s", c.in.Event, k, g, w)
			}
		}
		h := Hook{Event: c.in.Event, Matcher: c.matcher}
		if err := h.compile(); err != nil {
			t.Fatal(err)
		}
		if !h.matches(c.in) {
			t.Errorf("%s: the matcher %q does not match", c.in.Event, c.matcher)
		}
		other := Hook{Event: c.in.Event, Matcher: "nothing-like-it"}
		_ = other.compile()
		if other.matches(c.in) {
			t.Errorf("%s: any matcher matches", c.in.Event)
		}
	}
}

// What several hooks say together: a legacy "block" refuses, "approve"
// allows, ask beats allow and carries its reason to the person, exit 2
// with nothing on stderr still blocks, a deny without a reason says a
// hook blocked it; /hooks shows each one's last run.
func TestHooksDecideTogether(t *testing.T) {
	dir, ctx := t.TempDir(), context.Background()
	post := Input{Event: PostToolUse, Tool: "write_file", ToolInput: `{"path":"a.go","content":"x"}`, ToolResponse: "wrote a.go"}
	legacy := NewRunner([]Hook{script(PostToolUse, `echo '{"decision":"block","reason":"gofmt failed"}'`, 0)}, dir, nil)
	if out := legacy.Run(ctx, post); !out.Block || out.Reason != "gofmt failed" || out.Decision != "" {
		t.Errorf("a legacy block at PostToolUse: %+v", out)
	}
	if st := legacy.Status(); len(st) != 1 || st[0].Runs != 1 || st[0].Last != "exit 0: blocked (gofmt failed)" {
		t.Errorf("status %+v", st)
	}
	pre := Input{Event: PreToolUse, Tool: "run_command", ToolInput: `{"command":"make"}`}
	r := NewRunner([]Hook{
		script(PreToolUse, `echo '{"decision":"approve"}'`, 0),
		script(PreToolUse, `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"make runs the deploy target too"}}'`, 0),
	}, dir, nil)
	if out := r.Run(ctx, pre); out.Decision != Ask || out.Block || len(out.Messages) != 1 || out.Messages[0] != "make runs the deploy target too" {
		t.Errorf("approve and ask: %+v", out)
	}
	if !r.Has(PreToolUse) || r.Has(Stop) || (*Runner)(nil).Has(PreToolUse) || (*Runner)(nil).Status() != nil {
		t.Error("Has answers wrongly")
	}
	silent := NewRunner([]Hook{script(PreToolUse, `exit 2`, 0), script(PreToolUse, `echo '{"hookSpecificOutput":{"permissionDecision":"deny"}}'`, 0)}, dir, nil)
	out := silent.Run(ctx, pre)
	if !out.Block || out.Decision != Deny || out.Reason != "blocked by a hook (exit 2, nothing on stderr)\nblocked by a hook" {
		t.Errorf("blocks without reasons: %+v", out)
	}
	if got := (*Runner)(nil).Run(ctx, pre); got.Ran != 0 {
		t.Errorf("a nil runner ran %d hooks", got.Ran)
	}
	if NewRunner(nil, dir, nil) != nil {
		t.Error("a runner without hooks is not nil")
	}
	// A hook given as a program and its arguments runs that program.
	args := NewRunner([]Hook{{Event: UserPromptSubmit, Command: "/bin/echo", Args: []string{"from", "args"}, Source: "test"}}, dir, nil)
	if out := args.Run(ctx, Input{Event: UserPromptSubmit, Prompt: "hi"}); len(out.Context) != 1 || out.Context[0] != "from args" {
		t.Errorf("a hook with arguments: %+v", out)
	}
}

// The person's own settings file is read too; one that is too large or
// unreadable is a notice, and its hooks are not run.
func TestUserSettingsAreReadAndBounded(t *testing.T) {
	home := t.TempDir()
	settings := filepath.Join(home, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(settings), 0o700); err != nil {
		t.Fatal(err)
	}
	write := func(data string) {
		if err := os.WriteFile(settings, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(`{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"notify-send done"}]}]}}`)
	if f := Discover(home, ""); len(f.User) != 1 || f.User[0].Command != "notify-send done" || len(f.Notices) != 0 {
		t.Errorf("the user's hooks: %+v", f)
	}
	write(`{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x"}]}]},"pad":"` + strings.Repeat("x", maxSettingsBytes) + `"}`)
	if f := Discover(home, ""); len(f.User) != 0 || len(f.Notices) != 1 || !strings.Contains(f.Notices[0], "larger than 256 KiB; its hooks are not run") {
		t.Errorf("an oversized settings file: %+v", f)
	}
	write(`{"hooks": 5}`)
	if f := Discover(home, ""); len(f.User) != 0 || len(f.Notices) != 1 || !strings.HasSuffix(f.Notices[0], "; its hooks are not run") {
		t.Errorf("a broken settings file: %+v", f)
	}
	if err := os.Remove(settings); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(settings, 0o700); err != nil {
		t.Fatal(err)
	}
	if f := Discover(home, ""); len(f.User) != 0 || len(f.Notices) != 1 || !strings.Contains(f.Notices[0], "its hooks are not run") {
		t.Errorf("a folder in place of the settings file: %+v", f)
	}
}
