package engine

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/mcp"
	"github.com/seed-e4e525a6/baton/engine/mcp/mcptest"
	"github.com/seed-e4e525a6/baton/engine/permission"
)

// withMCP connects the session to a real MCP server (streamable HTTP on
// loopback) named srv, waiting until its tools are offered.
func withMCP(t *testing.T) func(*Config) {
	t.Helper()
	m := startMCP(t, mcp.Options{}, mcp.Server{Name: "srv", URL: mcptest.HTTP(t, nil), Source: "test"})
	return func(c *Config) { c.MCP = m }
}

// callThenAnswer scripts a model that calls one tool, then answers.
func callThenAnswer(name, args string) llmtest.Responder {
	return func(r *llmtest.Request, w *llmtest.Writer) {
		if len(toolMessages(r)) == 0 {
			w.ToolCalls(llmtest.Call{ID: "c1", Name: name, Args: args})
			return
		}
		w.Text("done")
	}
}

func TestModelCallsAnMCPToolAndGetsItsResult(t *testing.T) {
	s, srv := newTestSession(t, callThenAnswer("mcp__srv__echo", `{"text":"hello"}`), func(c *Config) {
		withMCP(t)(c)
		c.Mode, c.Allow = permission.Headless, []string{"mcp__srv__*"}
	})
	log := runTurn(t, s, "echo hello", nil)
	reqs := srv.Requests()
	if !slices.Contains(reqs[0].ToolNames(), "mcp__srv__echo") {
		t.Fatalf("tools offered: %v", reqs[0].ToolNames())
	}
	for _, tl := range reqs[0].Body.Tools {
		if tl.Function.Name == "mcp__srv__echo" {
			schema, _ := json.Marshal(tl.Function.Parameters)
			contains(t, "echo schema", string(schema), `"text"`)
		}
	}
	if got := toolMessages(reqs[1]); len(got) != 1 || got[0] != "echo: hello" {
		t.Fatalf("tool result %q", got)
	}
	if fin := eventsOf[event.ToolFinished](log); len(fin) != 1 || fin[0].IsError {
		t.Fatalf("finished %+v", fin)
	}
}

func TestMCPCallNeedsApprovalLikeACommand(t *testing.T) {
	s, srv := newTestSession(t, callThenAnswer("mcp__srv__echo", `{"text":"x"}`), func(c *Config) {
		withMCP(t)(c)
		c.Mode = permission.Headless
	})
	runTurn(t, s, "go", nil)
	got := toolMessages(srv.Requests()[1])
	if len(got) != 1 || !strings.Contains(got[0], "--allow mcp__srv__echo") {
		t.Fatalf("tool result %q", got)
	}
	s, _ = newTestSession(t, callThenAnswer("mcp__srv__echo", `{"text":"x"}`), func(c *Config) {
		withMCP(t)(c)
		c.Mode = permission.Ask
	})
	var asked []string
	runTurn(t, s, "go", func(r *event.ApprovalRequest) event.Answer {
		asked = append(asked, r.Tool+"\n"+r.Preview)
		return event.Answer{Decision: event.Deny}
	})
	if !slices.Equal(asked, []string{"mcp__srv__echo\necho on MCP server srv\n{\n  \"text\": \"x\"\n}"}) {
		t.Fatalf("asked about %v", asked)
	}
}

func TestMCPToolErrorGoesBackToTheModel(t *testing.T) {
	s, srv := newTestSession(t, callThenAnswer("mcp__srv__fail", `{}`), withMCP(t))
	log := runTurn(t, s, "go", nil)
	got := toolMessages(srv.Requests()[1])
	if len(got) != 1 || !strings.Contains(got[0], "Error: mcp__srv__fail failed: boom: the widget is broken") {
		t.Fatalf("tool result %q", got)
	}
	if fin := eventsOf[event.ToolFinished](log); len(fin) != 1 || !fin[0].IsError {
		t.Fatalf("finished %+v", fin)
	}
}

func TestUntrustedServerStartIsAskedOnACard(t *testing.T) {
	s, _ := newTestSession(t, callThenAnswer("x", "{}"), nil)
	got := make(chan bool, 1)
	ask := MCPServerAsk{Name: "gh", Source: ".mcp.json", Command: "npx -y server-github"}
	go func() { got <- s.ApproveMCPServer(context.Background(), ask) }()
	ev := <-s.Events()
	req, ok := ev.(event.ApprovalRequested)
	if !ok || req.Request.Kind != event.ApproveMCPServer || req.Request.Server == nil || *req.Request.Server != (event.ServerPreview{Name: "gh", Command: "npx -y server-github", Source: ".mcp.json"}) {
		t.Fatalf("event %#v", ev)
	}
	req.Request.Answer(event.Answer{Decision: event.Allow})
	if !<-got {
		t.Fatal("an allowed server was refused")
	}
	if res, ok := (<-s.Events()).(event.ApprovalResolved); !ok || res.Answer.Decision != event.Allow {
		t.Fatalf("resolution %#v", res)
	}
	go func() { got <- s.ApproveMCPServer(context.Background(), ask) }()
	(<-s.Events()).(event.ApprovalRequested).Request.Answer(event.Answer{Decision: event.Deny})
	if <-got {
		t.Fatal("a denied server was allowed")
	}
}

// Trusting the folder on a server's card records it through the caller's
// TrustFolder (as `baton trust` does), says so, and starts the server; a
// failure to record it is told, and the server starts this once.
func TestTrustingTheFolderOnAServerCard(t *testing.T) {
	s, _ := newTestSession(t, callThenAnswer("x", "{}"), nil)
	for _, fail := range []bool{false, true} {
		trusted := 0
		ask := MCPServerAsk{Name: "gh", Source: ".mcp.json", Command: "npx -y server-github", TrustFolder: func() (string, error) {
			if fail {
				return "", errors.New("trust list is damaged")
			}
			trusted++
			return "trusted: /work/app", nil
		}}
		got := make(chan bool, 1)
		go func() { got <- s.ApproveMCPServer(context.Background(), ask) }()
		req := (<-s.Events()).(event.ApprovalRequested)
		if !req.Request.Server.CanTrust {
			t.Fatal("the card does not offer to trust the folder")
		}
		req.Request.Answer(event.Answer{Decision: event.AllowAlways})
		var notice string
		for notice == "" {
			if n, ok := (<-s.Events()).(event.Notice); ok {
				notice = n.Text
			}
		}
		if !<-got {
			t.Fatal("the server did not start")
		}
		want := "trusted: /work/app"
		if fail {
			want = "could not trust this folder: trust list is damaged; gh starts this once"
		}
		if notice != want || trusted != map[bool]int{false: 1, true: 0}[fail] {
			t.Errorf("fail %v: notice %q, trusted %d times", fail, notice, trusted)
		}
	}
}
