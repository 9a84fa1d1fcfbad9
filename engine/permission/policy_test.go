package permission

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/hooks"
	"github.com/seed-e4e525a6/baton/engine/rules"
)

// command is a run_command request for cmd.
func command(cmd string) agent.ToolRequest {
	args, _ := json.Marshal(map[string]string{"command": cmd})
	return agent.ToolRequest{CallID: "c1", Tool: "run_command", Args: args}
}

// read is a read_file request for path.
func read(path string) agent.ToolRequest {
	args, _ := json.Marshal(map[string]string{"path": path})
	return agent.ToolRequest{CallID: "c3", Tool: "read_file", ReadOnly: true, Args: args}
}

// edit is a write_file request for path.
func edit(path string) agent.ToolRequest {
	args, _ := json.Marshal(map[string]string{"path": path, "content": "x"})
	return agent.ToolRequest{CallID: "c2", Tool: "write_file", Args: args}
}

// newPolicy is a policy over a temporary workspace with standing rules
// ("deny run_command(rm:*)" and the like).
func newPolicy(t *testing.T, mode Mode, allow []string, standing ...string) *Policy {
	t.Helper()
	var list []event.PermissionRule
	for _, s := range standing {
		kind, rule, _ := strings.Cut(s, " ")
		list = append(list, event.PermissionRule{Kind: kind, Rule: rule, Source: event.SourceUser})
	}
	p, err := New(mode, t.TempDir(), allow, list)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// silent is an agent whose cards nobody sees; a test that reaches a card
// through it fails.
func silent(t *testing.T) Who {
	return Who{Meta: event.Meta{Agent: event.MainAgent}, Emit: func(ev event.Event) {
		if _, ok := ev.(event.ApprovalRequested); ok {
			t.Errorf("a card was shown: %+v", ev)
		}
	}}
}

// A headless run never waits: what the rules allow runs, a deny rule
// refuses with its rule, and the rest is refused with the flag that
// would allow it.
func TestHeadlessDecidesWithoutAsking(t *testing.T) {
	p := newPolicy(t, Headless, []string{"run_command(go test:*)"}, "deny run_command(rm:*)", "ask run_command(git push:*)")
	gate := p.For(silent(t), nil)
	ctx := context.Background()
	if _, err := gate.Authorize(ctx, command("go test ./...")); err != nil {
		t.Errorf("an allowed command: %v", err)
	}
	for cmd, want := range map[string]string{
		"rm -rf build":      "denied by the rule deny run_command(rm:*)",
		"git push origin":   "needs approval (rule ask run_command(git push:*)",
		"make install":      `re-run with --allow "run_command(make install:*)"`,
		"$(echo rm) -rf /x": "every deny and ask rule covers it",
	} {
		if _, err := gate.Authorize(ctx, command(cmd)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", cmd, err, want)
		}
	}
	read := agent.ToolRequest{Tool: "read_file", ReadOnly: true, Args: json.RawMessage(`{"path":"a.go"}`)}
	if _, err := gate.Authorize(ctx, read); err != nil {
		t.Errorf("a read: %v", err)
	}
	hooked := command("make")
	hooked.Hook = hooks.Ask
	if _, err := gate.Authorize(ctx, hooked); err == nil || !strings.Contains(err.Error(), "a PreToolUse hook asked") {
		t.Errorf("a hook's ask: %v", err)
	}
	hooked.Hook = hooks.Allow
	if _, err := gate.Authorize(ctx, hooked); err != nil {
		t.Errorf("a hook's allow: %v", err)
	}
	narrowed := read
	narrowed.Narrowed, narrowed.Skills = mustRules(t, "grep"), "style"
	if _, err := gate.Authorize(ctx, narrowed); err == nil || !strings.Contains(err.Error(), "the active skill style") {
		t.Errorf("outside a skill's allowed-tools: %v", err)
	}
}

func mustRules(t *testing.T, texts ...string) []rules.Rule {
	t.Helper()
	rs, err := rules.ParseAll(texts)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// Yolo runs everything a deny rule does not refuse; plan mode runs only
// what reads; auto-accept runs edits without asking but not commands.
func TestModesDecide(t *testing.T) {
	ctx := context.Background()
	yolo := newPolicy(t, Yolo, nil, "deny run_command(rm:*)")
	if _, err := yolo.For(silent(t), nil).Authorize(ctx, command("make install")); err != nil {
		t.Errorf("yolo: %v", err)
	}
	if _, err := yolo.For(silent(t), nil).Authorize(ctx, command("rm -rf /")); err == nil {
		t.Error("yolo ran what a deny rule refuses")
	}

	p := newPolicy(t, Headless, nil)
	if err := p.SetAgentMode(AgentModePlan); err != nil || p.AgentMode() != AgentModePlan {
		t.Fatalf("plan mode: %v", err)
	}
	if _, err := p.For(silent(t), nil).Authorize(ctx, edit("a.go")); err == nil || !strings.Contains(err.Error(), "plan mode") {
		t.Errorf("an edit in plan mode: %v", err)
	}
	if err := p.SetAgentMode(AgentModeAutoAccept); err != nil {
		t.Fatal(err)
	}
	if _, err := p.For(silent(t), nil).Authorize(ctx, edit("a.go")); err != nil {
		t.Errorf("an edit in auto-accept: %v", err)
	}
	if _, err := p.For(silent(t), nil).Authorize(ctx, command("make")); err == nil {
		t.Error("auto-accept ran a command")
	}
	if err := p.SetAgentMode("reckless"); err == nil || p.AgentMode() != AgentModeAutoAccept {
		t.Errorf("an unknown mode: %v, now %s", err, p.AgentMode())
	}
	if (&Policy{}).AgentMode() != AgentModeNormal || p.Mode() != Headless {
		t.Error("the zero policy is not in normal mode")
	}
}

// A child's own rules bind it: its deny refuses, its ask shows a card
// even where the standing rules allow, and its allow runs; the main
// agent's standing allow rules are not the child's.
func TestAChildsOwnRules(t *testing.T) {
	ctx := context.Background()
	p := newPolicy(t, Headless, []string{"run_command(make:*)"})
	own := rules.Set{}
	own.Add(rules.Deny, mustRules(t, "run_command(curl:*)")[0])
	own.Add(rules.Allow, mustRules(t, "run_command(go vet:*)")[0])
	own.Add(rules.Ask, mustRules(t, "run_command(go test:*)")[0])
	child := Who{Meta: event.Meta{Agent: "explore-1", Parent: event.MainAgent}, Emit: func(event.Event) {}}
	gate := p.For(child, NewGrants(own))
	for cmd, want := range map[string]string{
		"curl example.com": "denied by this agent's own rule",
		"go test ./...":    "needs approval (rule ask run_command(go test:*)",
		"make":             "needs approval and a headless run cannot ask",
	} {
		if _, err := gate.Authorize(ctx, command(cmd)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", cmd, err, want)
		}
	}
	if _, err := gate.Authorize(ctx, command("go vet ./...")); err != nil {
		t.Errorf("the child's own allow: %v", err)
	}
}

// The standing rules are listed deny first with where they came from;
// the person's own additions can be removed, a rule that is not there
// cannot, and a rule that does not parse is refused.
func TestStandingRulesAddListAndRemove(t *testing.T) {
	p := newPolicy(t, Ask, []string{"read_file"}, "deny run_command(rm:*)")
	if err := p.Add(event.PermissionRule{Kind: "allow", Rule: "run_command(go test:*)"}); err != nil {
		t.Fatal(err)
	}
	if err := p.Add(event.PermissionRule{Kind: "allow", Rule: "run_command(go test:*)"}); err != nil {
		t.Fatal(err) // the same rule again is kept once
	}
	got := p.Rules()
	want := []event.PermissionRule{
		{Kind: "deny", Rule: "run_command(rm:*)", Source: event.SourceUser},
		{Kind: "allow", Rule: "read_file", Source: event.SourceFlag},
		{Kind: "allow", Rule: "run_command(go test:*)", Source: event.SourceSession},
	}
	if len(got) != len(want) {
		t.Fatalf("rules %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("rule %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	if err := p.Remove("allow", "run_command(go test:*)"); err != nil || len(p.Rules()) != 2 {
		t.Errorf("remove: %v, left %+v", err, p.Rules())
	}
	if err := p.Remove("allow", "run_command(go test:*)"); err == nil {
		t.Error("removing a rule that is not there succeeded")
	}
	for _, bad := range []event.PermissionRule{{Kind: "maybe", Rule: "read_file"}, {Kind: "allow", Rule: "run_command(go test"}} {
		if err := p.Add(bad); err == nil {
			t.Errorf("Add(%+v) succeeded", bad)
		}
	}
	if err := p.Remove("allow", "run_command("); err == nil {
		t.Error("removing a rule that does not parse succeeded")
	}
	if _, err := New(Ask, t.TempDir(), []string{"read_file("}, nil); err == nil {
		t.Error("an --allow that does not parse was taken")
	}
	if _, err := New(Ask, t.TempDir(), nil, []event.PermissionRule{{Kind: "deny", Rule: "run_command(", Source: "x"}}); err == nil || !strings.Contains(err.Error(), "deny rule from x") {
		t.Errorf("a standing rule that does not parse: %v", err)
	}
	if rule, denied := p.DenyRule(rules.CommandCall("rm -rf x")); !denied || rule.String() != "run_command(rm:*)" {
		t.Errorf("DenyRule: %s %v", rule, denied)
	}
}

// answerer is an agent whose cards are answered by answer as they are
// shown, the way the UI's queue answers them, in a goroutine.
func answerer(t *testing.T, answer func(*event.ApprovalRequest) event.Answer) (Who, <-chan *event.ApprovalRequest) {
	shown := make(chan *event.ApprovalRequest, 8)
	return Who{Meta: event.Meta{Agent: event.MainAgent}, Emit: func(ev event.Event) {
		if req, ok := ev.(event.ApprovalRequested); ok {
			shown <- req.Request
			go req.Request.Answer(answer(req.Request))
		}
	}}, shown
}

// In ask mode a call the rules do not cover shows a card with what it
// would run and the rules "always" would add; "always" keeps the rule,
// so the next such call runs without a card; a refusal is a
// DeniedError with the person's reason.
func TestAskShowsACardAndRemembersAlways(t *testing.T) {
	ctx := context.Background()
	p := newPolicy(t, Ask, nil)
	var notified []string
	p.Notify(func(req *event.ApprovalRequest) { notified = append(notified, req.ID) })
	who, shown := answerer(t, func(req *event.ApprovalRequest) event.Answer {
		return event.Answer{Decision: event.AllowAlways}
	})
	req := command("go test ./ui")
	req.Preview = func(context.Context) (string, error) { return "go test ./ui", nil }
	if _, err := p.For(who, nil).Authorize(ctx, req); err != nil {
		t.Fatalf("allowed always: %v", err)
	}
	card := <-shown
	if card.Preview != "go test ./ui" || len(card.Always) == 0 || card.Always[0] != "run_command(go test:*)" || card.AlwaysLabel == "" || len(notified) != 1 {
		t.Errorf("the card: %+v, notified %v", card, notified)
	}
	if _, err := p.For(silent(t), nil).Authorize(ctx, command("go test ./engine")); err != nil {
		t.Errorf("after always, a covered call still asks: %v", err)
	}

	refuse, _ := answerer(t, func(*event.ApprovalRequest) event.Answer {
		return event.Answer{Decision: event.Deny, Reason: "not today"}
	})
	_, err := p.For(refuse, nil).Authorize(ctx, command("make deploy"))
	var denied *agent.DeniedError
	if !errors.As(err, &denied) || denied.Reason != "not today" {
		t.Errorf("a refusal: %v", err)
	}
	failing := command("make")
	failing.Preview = func(context.Context) (string, error) { return "", errors.New("no preview") }
	if _, err := p.For(silent(t), nil).Authorize(ctx, failing); err == nil || err.Error() != "no preview" {
		t.Errorf("a preview that fails: %v", err)
	}
}

// A child's "always" is the child's own: it covers the child's next call,
// not the main agent's.
func TestAChildsAlwaysIsItsOwn(t *testing.T) {
	ctx := context.Background()
	p := newPolicy(t, Ask, nil)
	who, _ := answerer(t, func(*event.ApprovalRequest) event.Answer {
		return event.Answer{Decision: event.AllowAlways, Rules: []string{"run_command(go test:*)", "run_command(rm:*)"}}
	})
	who.Meta = event.Meta{Agent: "explore-1"}
	grants := NewGrants(rules.Set{})
	if _, err := p.For(who, grants).Authorize(ctx, command("go test ./ui")); err != nil {
		t.Fatal(err)
	}
	child := silent(t)
	child.Meta.Agent = "explore-1"
	if _, err := p.For(child, grants).Authorize(ctx, command("go test ./x")); err != nil {
		t.Errorf("the child's always does not cover its next call: %v", err)
	}
	if !grants.covers(rules.CommandCall("go test ./y")) || grants.covers(rules.CommandCall("rm -rf /")) {
		t.Error("the child kept a rule its card did not offer, or not the one it did")
	}
	if len(p.Rules()) != 0 {
		t.Errorf("a child's always became a standing rule: %+v", p.Rules())
	}
}

// Request ids never repeat, even past the ids a resumed transcript used.
func TestRequestIDsMovePastResumedOnes(t *testing.T) {
	p := newPolicy(t, Ask, nil)
	if id := p.Request(event.ApproveTool).ID; id != "ap-1" {
		t.Errorf("first id %s", id)
	}
	p.NoteApproval("ap-41")
	p.NoteApproval("ap-7")    // an older one moves nothing back
	p.NoteApproval("card-99") // not ours
	if id := p.Request(event.ApproveTool).ID; id != "ap-42" {
		t.Errorf("after resuming ap-41: %s", id)
	}
}

// A cancelled wait ends with the cancellation recorded as who answered,
// and never hangs.
func TestAskEndsWithItsContext(t *testing.T) {
	p := newPolicy(t, Ask, nil)
	ctx, cancel := context.WithCancel(context.Background())
	var resolved event.ApprovalResolved
	who := Who{Meta: event.Meta{Agent: event.MainAgent}, Emit: func(ev event.Event) {
		switch ev := ev.(type) {
		case event.ApprovalRequested:
			cancel()
		case event.ApprovalResolved:
			resolved = ev
		}
	}}
	ans := p.Ask(ctx, who, p.Request(event.ApproveTool))
	if ans.Decision == event.Allow || ans.Decision == event.AllowAlways || resolved.By != "cancellation" {
		t.Errorf("a cancelled question: %+v, resolved by %q", ans, resolved.By)
	}
}
