package agenttypes

import (
	"strings"
	"testing"
)

// TestCommandLineSplitsOnlyCommands: "/name args" splits into the name
// and the trimmed arguments; a path, a prompt without a slash, or a name
// with characters no command has is not a command.
func TestCommandLineSplitsOnlyCommands(t *testing.T) {
	for _, c := range []struct {
		prompt, name, args string
		ok                 bool
	}{
		{"/review  src/auth.go  ", "review", "src/auth.go", true},
		{"  \n/git:commit\tfix the typo", "git:commit", "fix the typo", true},
		{"/plan", "plan", "", true},
		{"/usr/bin is missing", "usr/bin", "is missing", false},
		{"review this", "", "", false},
		{"/$(id) now", "$(id)", "now", false},
	} {
		name, args, ok := CommandLine(c.prompt)
		if name != c.name || args != c.args || ok != c.ok {
			t.Errorf("CommandLine(%q) = %q, %q, %v; want %q, %q, %v", c.prompt, name, args, ok, c.name, c.args, c.ok)
		}
	}
	cmds := []Command{{Name: "plan"}, {Name: "review"}}
	if c, ok := FindCommand(cmds, "review"); !ok || c.Name != "review" {
		t.Fatalf("FindCommand review: %+v, %v", c, ok)
	}
	if _, ok := FindCommand(cmds, "Review"); ok {
		t.Fatal("FindCommand matched a name of another case")
	}
}

// TestCommandPromptDelegatesASubtask: a plain command's prompt is its
// filled template; a sub-task command asks the main agent to delegate to
// its type (general-purpose by default, spelt as registered, with its
// model); a type that is not offered runs in the conversation, and the
// note says so.
func TestCommandPromptDelegatesASubtask(t *testing.T) {
	types := []Type{{Name: "general-purpose"}, {Name: "explore"}, {Name: "secret", Hidden: true}}
	plain := Command{Name: "fix", Template: "Fix $1 now"}
	if p, note := plain.Prompt("bug.go", types); p != "Fix bug.go now" || note != "" {
		t.Fatalf("plain command: %q, %q", p, note)
	}
	sub := Command{Name: "scan", Template: "Scan $ARGUMENTS", Subtask: true, Agent: "Explore", Model: "small"}
	p, note := sub.Prompt("the repo", types)
	if note != "" || !strings.Contains(p, `subagent_type "explore" and model "small"`) || !strings.HasSuffix(p, "\n\nScan the repo") {
		t.Fatalf("sub-task to explore: %q, %q", p, note)
	}
	if p, _ := (Command{Name: "gp", Template: "Do it", Subtask: true}).Prompt("", types); !strings.Contains(p, `subagent_type "general-purpose", a short`) {
		t.Fatalf("sub-task without an agent: %q", p)
	}
	for _, agent := range []string{"secret", "missing"} {
		c := Command{Name: "hide", Template: "Look", Subtask: true, Agent: agent}
		p, note := c.Prompt("", types)
		if p != "Look" || note != `/hide names agent "`+agent+`", which is not a sub-agent type here; it runs in this conversation` {
			t.Fatalf("sub-task to %s: %q, %q", agent, p, note)
		}
	}
}
