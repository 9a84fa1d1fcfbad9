package command

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/ui/input"
	"github.com/seed-e4e525a6/baton/ui/overlay"
	"github.com/seed-e4e525a6/baton/ui/status"
)

// Every registered command says what it does and runs; /help lists every
// one of them and the popup offers every one; the help order names only
// commands that exist. A command added in a file of its own is checked
// here without being named.
func TestEveryCommandIsDescribedListedAndOffered(t *testing.T) {
	h := newHarness(t, Options{})
	if len(builtins()) < len(order) {
		t.Fatalf("%d commands registered, fewer than the %d the help order names", len(builtins()), len(order))
	}
	for _, name := range order {
		if _, ok := builtins()[name]; !ok {
			t.Errorf("the help order names /%s, which is not registered", name)
		}
	}
	help := h.result("/help").Note
	popup := h.r.Complete("/")
	for _, c := range h.r.Builtins() {
		if c.Name == "" || strings.ContainsAny(c.Name, " /") || c.Desc == "" || c.Run == nil {
			t.Errorf("command %q lacks a name, a description or a run: %+v", c.Name, c)
		}
		if !strings.Contains(help, "/"+strings.TrimSpace(c.Name+" "+c.Args)+" ") {
			t.Errorf("/help does not list /%s", c.Name)
		}
		if !slices.ContainsFunc(popup, func(cand input.Candidate) bool {
			return cand.Desc == c.Desc && strings.HasPrefix(cand.Label, "/"+c.Name)
		}) {
			t.Errorf("the popup does not offer /%s", c.Name)
		}
	}
	if got := h.r.Builtins()[0].Name; got != "help" {
		t.Errorf("the first command is /%s, want /help", got)
	}
}

// An unknown command says so, cleaned; a built-in hides a custom command
// of its name, which /help says.
func TestUnknownAndHiddenCommands(t *testing.T) {
	custom := []agenttypes.Command{{Name: "help", Description: "not the real help", Template: "Shadowed.", Source: "/p/.baton/commands/help.md"},
		{Name: "review", Description: "Review \x1b[31ma file", ArgumentHint: "[file]", Template: "Review $1."}}
	h := newHarness(t, Options{Custom: custom})
	if msgs := h.run("/frob\x1b[2J", false); len(msgs) != 0 || h.status.Level() != status.Error || !strings.Contains(h.status.Text(), "unknown command /frob") ||
		strings.Contains(h.status.Text(), "\x1b") {
		t.Errorf("an unknown command: %v, %q", msgs, h.status.Text())
	}
	help := h.result("/help").Note
	contains(t, "/help", help, "Custom commands", "hidden by the built-in /help (/p/.baton/commands/help.md)", "/review [file]", "Review a file")
	if r := h.result("/review main.go"); r.Submit != "Review main.go." || r.Queued != "/review" {
		t.Errorf("/review: %+v", r)
	}
	popup := h.r.Complete("/rev")
	if len(popup) != 1 || popup[0].Text != "/review " || popup[0].Complete {
		t.Errorf("/rev offers %+v", popup)
	}
	if popup := h.r.Complete("/he"); len(popup) != 1 || popup[0].Desc != "show keys and commands" {
		t.Errorf("/he offers %+v, the custom /help hidden", popup)
	}
	if h.r.Complete("hello") != nil || h.r.Complete("/help\nmore") != nil || h.r.Complete("/quit now") != nil {
		t.Error("completion offers something for a prompt, two lines, or after a command that completes nothing")
	}
}

// /help writes the commands, the sandbox, the keys by where they apply
// and the themes, lined up whatever the names' length.
func TestHelp(t *testing.T) {
	h := newHarness(t, Options{Version: "1.2.3", SandboxInfo: func() string { return "workspace-write" }, SubagentSandboxInfo: func() string { return "read-only" }})
	h.keys = []overlay.KeyGroup{{Where: "input", Keys: []key.Binding{key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "send"))}}}
	help := h.result("/help").Note
	contains(t, "/help", help, "baton 1.2.3", "Commands run in sandbox: workspace-write", "Sub-agents' commands run in sandbox: read-only",
		"/subagents list|stop|log|info|send|diff", "Keys in the input: enter send", "Themes: dark")
	column := func(prefix, desc string) int {
		for _, l := range strings.Split(help, "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), prefix) {
				return strings.Index(l, desc)
			}
		}
		return -1
	}
	if a, b := column("/help", "show keys"), column("/permissions", "list, add"); a < 0 || a != b {
		t.Errorf("descriptions start at %d (/help) and %d (/permissions):\n%s", a, b, help)
	}
}
