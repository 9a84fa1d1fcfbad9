package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// serverCommand is an untrusted project's server command: longer than
// any terminal, with a token no space breaks and an escape that would
// hide what follows it if it were drawn.
var serverCommand = "NODE_OPTIONS='--require ./.mcp/hook.js' npx -y @modelcontextprotocol/server-github --config " +
	strings.Repeat("x", 90) + "-END '\x1b[8mhidden' --log /tmp/gh.log"

// askServer brings up an MCP server's card and returns its answers.
func askServer(t *testing.T, d *driver, id, name string, canTrust bool) chan event.Answer {
	t.Helper()
	req := &event.ApprovalRequest{ID: id, Kind: event.ApproveMCPServer, Tool: "MCP server " + name,
		Server: &event.ServerPreview{Name: name, Command: serverCommand, Source: ".mcp.json", CanTrust: canTrust}}
	answers := newRequest(t, req)
	d.emit(event.ApprovalRequested{Meta: event.Meta{Agent: event.MainAgent, Time: t0}, Request: req})
	d.fire()
	return answers
}

// TestGoldenMCPServerCard: every byte of the command shows, wrapped (the
// escape spelled out), the card speaks of starting a server, not of a
// reason or a turn, and offers to trust the folder.
func TestGoldenMCPServerCard(t *testing.T) {
	for _, width := range []int{60, 80, 120} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			d := newDriver(t, width, 30)
			askServer(t, d, "ap-1", "github", true)
			screen := d.screen()
			var card strings.Builder
			for _, line := range strings.Split(screen, "\n") {
				if inner, ok := strings.CutPrefix(line, "│ "); ok {
					card.WriteString(strings.TrimSpace(strings.TrimSuffix(inner, "│")))
				}
			}
			want := strings.ReplaceAll(serverCommand, "\x1b", `\x1b`)
			if !strings.Contains(strings.ReplaceAll(card.String(), " ", ""), strings.ReplaceAll(want, " ", "")) {
				t.Errorf("the card does not show every byte of\n%s\n:\n%s", want, screen)
			}
			for _, want := range []string{"Start MCP server github?", "from .mcp.json, in a folder you have not trusted", "y start it this once", "n leave it off", "t trust this folder"} {
				if !strings.Contains(card.String(), strings.ReplaceAll(want, " ", "")) && !strings.Contains(screen, want) {
					t.Errorf("the card lacks %q:\n%s", want, screen)
				}
			}
			for _, gone := range []string{"reason", "turn"} {
				if strings.Contains(screen, gone) {
					t.Errorf("the card speaks of a %s there is not:\n%s", gone, screen)
				}
			}
			d.checkFits()
			golden.RequireEqual(t, []byte(screen+"\n"))
		})
	}
}

// t on a server's card trusts the folder (the engine records it) and
// answers the other servers' cards waiting behind it; n leaves a server
// off without asking for a reason.
func TestMCPServerCardKeys(t *testing.T) {
	d := newDriver(t, 100, 30)
	first := askServer(t, d, "ap-1", "github", true)
	d.keys("n")
	if got := <-first; got.Decision != event.Deny || d.m.approvals.Len() != 0 {
		t.Fatalf("n answered %+v, cards left %d", got, d.m.approvals.Len())
	}
	if !strings.Contains(d.screen(), "MCP server github stays off") {
		t.Errorf("n is not acknowledged:\n%s", d.screen())
	}
	a := askServer(t, d, "ap-2", "github", true)
	b := askServer(t, d, "ap-3", "db", true)
	d.keys("t")
	if got := <-a; got.Decision != event.AllowAlways || len(b) != 0 {
		t.Fatalf("t answered %q, and the other server's card too", got.Decision)
	}
	// The engine starts the trusted folder's other servers and says so.
	d.emit(event.ApprovalResolved{Meta: mainMeta, RequestID: "ap-3", Answer: event.Answer{Decision: event.Allow}, By: "remembered"})
	if d.m.approvals.Len() != 0 || !strings.Contains(d.screen(), "trusting this folder; starting MCP server github") {
		t.Errorf("after t: %d cards\n%s", d.m.approvals.Len(), d.screen())
	}
	// Without a trust list to record it in, t is not offered.
	c := askServer(t, d, "ap-4", "github", false)
	if strings.Contains(d.screen(), "trust this folder") {
		t.Errorf("t is offered with nowhere to record it:\n%s", d.screen())
	}
	d.keys("t", "y")
	if got := <-c; got.Decision != event.Allow {
		t.Errorf("t then y answered %q", got.Decision)
	}
}

func TestUntrustedMCPServerCardShowsTheCommandLineWhileIdle(t *testing.T) {
	d := newDriver(t, 100, 30)
	req := &event.ApprovalRequest{ID: "a1", Kind: event.ApproveTool, Tool: "MCP server gh",
		Preview: "npx -y server-github\n\nfrom .mcp.json in a folder you have not trusted; `baton trust` trusts its servers for good"}
	answers := newRequest(t, req)
	d.emit(event.ApprovalRequested{Meta: mainMeta, Request: req})
	screen := d.screen()
	for _, want := range []string{"Allow MCP server gh?", "npx -y server-github", "from .mcp.json"} {
		if !strings.Contains(screen, want) {
			t.Errorf("card lacks %q:\n%s", want, screen)
		}
	}
	d.keys("y")
	if got := (<-answers).Decision; got != event.Allow {
		t.Fatalf("answer %q", got)
	}
}
