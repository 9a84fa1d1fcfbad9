package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/permission"
)

// stepScript answers an agent with one tool call per step, then text.
func stepScript(calls ...llmtest.Call) llmtest.Responder {
	return func(r *llmtest.Request, w *llmtest.Writer) {
		n := len(toolMessages(r))
		if n < len(calls) {
			c := calls[n]
			c.ID = fmt.Sprintf("c%d", n)
			w.ToolCalls(c)
			return
		}
		w.Text("finished")
	}
}

func command(cmd string) llmtest.Call {
	return llmtest.Call{Name: "run_command", Args: fmt.Sprintf(`{"command":%q}`, cmd)}
}

func write(path string) llmtest.Call {
	return llmtest.Call{Name: "write_file", Args: fmt.Sprintf(`{"path":%q,"content":"x\n"}`, path)}
}

// TestAgentFileRulesLimitAChildToItsCommands: an agent whose own rules
// allow git diff* and git log* and deny the rest runs exactly those,
// without asking, and never a command hidden behind one of them.
func TestAgentFileRulesLimitAChildToItsCommands(t *testing.T) {
	gitReader := agenttypes.Type{Name: "git-reader", DisplayName: "Git Reader", Description: "reads history",
		SystemPrompt: "You read git history.", Tools: []string{"run_command"}, Model: agenttypes.InheritModel,
		Permissions: agenttypes.Rules{Allow: []string{"run_command(git diff:*)", "run_command(git log:*)"}, Deny: []string{"run_command"}}}
	child := stepScript(command("git diff --stat"), command("git log -1"), command("git push origin main"),
		command("git diff && touch pwned"), command("(git log; touch pwned2)"))
	s, _ := newTestSession(t, delegateOnce(`{"description":"read","prompt":"Read history.","subagent_type":"git-reader"}`, child),
		func(c *Config) { withTypes(gitReader)(c); c.Mode = permission.Ask })
	var cards []*event.ApprovalRequest
	log := runTurn(t, s, "go", func(r *event.ApprovalRequest) event.Answer {
		cards = append(cards, r)
		return event.Answer{Decision: event.Allow}
	})
	if len(cards) != 1 || cards[0].Kind != event.ApproveDelegation {
		t.Fatalf("only the delegation should ask, got %d cards", len(cards))
	}
	if got := cards[0].Delegation.Rules; !slices.Contains(got, "deny run_command") || !slices.Contains(got, "allow run_command(git diff:*)") {
		t.Errorf("the card shows the agent's own rules: %v", got)
	}
	results := map[string]event.ToolFinished{}
	for _, f := range eventsOf[event.ToolFinished](log) {
		results[f.CallID] = f
	}
	for id, wantDenied := range map[string]bool{"c0": false, "c1": false, "c2": true, "c3": true, "c4": true} {
		f := results[id]
		if denied := strings.Contains(f.Output, "denied by this agent's own rule"); denied != wantDenied {
			t.Errorf("%s: denied = %v, want %v (%q)", id, denied, wantDenied, f.Output)
		}
	}
	for _, name := range []string{"pwned", "pwned2"} {
		if _, err := os.Stat(filepath.Join(s.Workspace(), name)); err == nil {
			t.Errorf("%s was created behind an allowed git command", name)
		}
	}
}

// TestChildInheritsOnlyWhatItsCardListed: the card lists the standing
// rule, the approved child writes there unasked, asks on its own card
// elsewhere, and its "always" never reaches the main agent.
func TestChildInheritsOnlyWhatItsCardListed(t *testing.T) {
	respond := func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case isChild(r):
			stepScript(write("docs/a.md"), write("src/b.go"), write("src/b.go"))(r, w)
		case len(toolMessages(r)) == 0:
			w.ToolCalls(llmtest.Call{ID: "t1", Name: "task", Args: `{"description":"write","prompt":"Write docs.","subagent_type":"general-purpose"}`})
		case len(toolMessages(r)) == 1:
			w.ToolCalls(llmtest.Call{ID: "m1", Name: "write_file", Args: `{"path":"src/b.go","content":"main\n"}`})
		default:
			w.Text("done")
		}
	}
	s, _ := newTestSession(t, respond, func(c *Config) {
		c.Mode = permission.Ask
		c.Rules = []event.PermissionRule{{Kind: "allow", Rule: "write_file(docs/**)", Source: "user config"}}
	})
	var cards []*event.ApprovalRequest
	var metas []event.Meta
	watchTurn(t, s, "go", func(ev event.Event) {
		e, ok := ev.(event.ApprovalRequested)
		if !ok {
			return
		}
		cards, metas = append(cards, e.Request), append(metas, e.Meta)
		if e.Request.Kind == event.ApproveTool && e.Agent != event.MainAgent {
			e.Request.Answer(event.Answer{Decision: event.AllowAlways, Rules: e.Request.Always})
			return
		}
		e.Request.Answer(event.Answer{Decision: event.Allow})
	})
	if len(cards) != 3 {
		t.Fatalf("want the delegation, one child card and one main card; got %d", len(cards))
	}
	if got := cards[0].Delegation.Inherits; !slices.Equal(got, []string{"write_file(docs/**)"}) {
		t.Errorf("delegation card inherits %v", got)
	}
	if cards[1].Tool != "write_file" || metas[1].Agent == event.MainAgent || !strings.Contains(cards[1].Preview, "src/b.go") {
		t.Errorf("the child's own card: %+v from %s", cards[1], metas[1].Agent)
	}
	if !slices.Equal(cards[1].Always, []string{"write_file(src/b.go)"}) || !slices.Equal(cards[1].AlwaysFolder, []string{"write_file(src/**)"}) ||
		cards[1].AlwaysLabel != "src/b.go" || cards[1].AlwaysFolderLabel != "src/**" {
		t.Errorf("offers %v (%q) / %v (%q)", cards[1].Always, cards[1].AlwaysLabel, cards[1].AlwaysFolder, cards[1].AlwaysFolderLabel)
	}
	if metas[2].Agent != event.MainAgent {
		t.Errorf("the main agent asks for itself after the child's always; got %s", metas[2].Agent)
	}
	if got := s.Rules(); len(got) != 1 {
		t.Errorf("a child's always must not become a standing rule: %+v", got)
	}
}

// TestMainAlwaysDoesNotReachAChildSilently: a type approved "always"
// earlier gives later children what that card listed, not rules the
// main agent was given since.
func TestMainAlwaysDoesNotReachAChildSilently(t *testing.T) {
	turn := 0
	respond := func(r *llmtest.Request, w *llmtest.Writer) {
		last := r.Body.Messages[len(r.Body.Messages)-1]
		switch {
		case isChild(r):
			stepScript(write("notes.md"))(r, w)
		case last.Role == "tool":
			w.Text("done")
		case strings.Contains(r.LastUser(), "delegate"):
			w.ToolCalls(llmtest.Call{ID: "t1", Name: "task", Args: `{"description":"note","prompt":"Write notes.","subagent_type":"general-purpose"}`})
		default:
			w.ToolCalls(llmtest.Call{ID: "m1", Name: "write_file", Args: `{"path":"notes.md","content":"main\n"}`})
		}
	}
	s, _ := newTestSession(t, respond, func(c *Config) { c.Mode = permission.Ask })
	var childCards int
	answer := func(r *event.ApprovalRequest) event.Answer {
		if r.Kind == event.ApproveTool && turn == 2 {
			childCards++
		}
		return event.Answer{Decision: event.AllowAlways, Rules: r.Always}
	}
	turn = 1
	runTurn(t, s, "delegate once", answer) // type remembered; its child's write asks and is allowed
	runTurn(t, s, "write notes", answer)   // the main agent: always write_file(notes.md)
	turn = 2
	runTurn(t, s, "delegate again", answer)
	if childCards != 1 {
		t.Fatalf("the second child must ask on its own card: %d cards", childCards)
	}
}

// TestHeadlessAllowTakesRules: --allow "run_command(echo hi:*)" runs that
// prefix and refuses the same prefix with another command behind it.
func TestHeadlessAllowTakesRules(t *testing.T) {
	s, srv := newTestSession(t, stepScript(command("echo hi there"), command("echo hi && touch pwned")),
		func(c *Config) { c.Mode, c.Allow = permission.Headless, []string{"run_command(echo hi:*)"} })
	runTurn(t, s, "go", nil)
	last := srv.Requests()[len(srv.Requests())-1]
	msgs := toolMessages(last)
	contains(t, "allowed prefix", msgs[0], "hi there")
	contains(t, "compound", msgs[1], "headless run cannot ask")
	if _, err := os.Stat(filepath.Join(s.Workspace(), "pwned")); err == nil {
		t.Fatal("touch ran behind an allowed prefix")
	}
}

// TestDenyRuleBindsEvenYolo: a deny rule holds in yolo mode and for
// read-only tools.
func TestDenyRuleBindsEvenYolo(t *testing.T) {
	s, srv := newTestSession(t, stepScript(llmtest.Call{Name: "read_file", Args: `{"path":"secrets/key.txt"}`}, command("rm -f x")),
		func(c *Config) {
			c.Rules = []event.PermissionRule{{Kind: "deny", Rule: "read_file(secrets/**)"}, {Kind: "deny", Rule: "run_command(rm:*)"}}
		})
	writeFile(t, s.Workspace(), "secrets/key.txt", "hunter2")
	runTurn(t, s, "go", nil)
	msgs := toolMessages(srv.Requests()[len(srv.Requests())-1])
	for i, m := range msgs {
		contains(t, fmt.Sprint("call ", i), m, "denied by the rule deny")
	}
}

// A rule the person adds during the session (/permissions) binds the
// next call at once, shows with its source, and once removed binds no
// more; a rule that does not parse is refused and changes nothing.
func TestRuleAddedForTheSessionBindsUntilRemoved(t *testing.T) {
	s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		if r.Body.Messages[len(r.Body.Messages)-1].Role == "user" {
			w.ToolCalls(llmtest.Call{ID: fmt.Sprint("c", r.Index), Name: "read_file", Args: `{"path":"notes.txt"}`})
			return
		}
		w.Text("finished")
	}, nil)
	lastResult := func() string {
		msgs := toolMessages(srv.Requests()[len(srv.Requests())-1])
		return msgs[len(msgs)-1]
	}
	writeFile(t, s.Workspace(), "notes.txt", "NOTE-TEXT")
	if err := s.AddRule(event.PermissionRule{Kind: "deny", Rule: "read_file(notes.txt)"}); err != nil {
		t.Fatal(err)
	}
	if err := s.AddRule(event.PermissionRule{Kind: "deny", Rule: "read_file("}); err == nil || !strings.HasPrefix(err.Error(), "add rule: ") {
		t.Fatalf("a rule that does not parse: %v", err)
	}
	if rules := s.Rules(); len(rules) != 1 || rules[0].Source != event.SourceSession {
		t.Fatalf("rules %+v, want the one added, from the session", rules)
	}
	runTurn(t, s, "read it", nil)
	contains(t, "the call under the added rule", lastResult(), "denied by the rule deny")
	if err := s.RemoveRule("deny", "read_file(notes.txt)"); err != nil {
		t.Fatal(err)
	}
	if err := s.RemoveRule("deny", "read_file(notes.txt)"); err == nil || !strings.HasPrefix(err.Error(), "remove rule: ") {
		t.Fatalf("removing a rule twice: %v", err)
	}
	runTurn(t, s, "read it again", nil)
	contains(t, "the call once the rule is gone", lastResult(), "NOTE-TEXT")
}
