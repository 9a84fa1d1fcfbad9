package child_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/mcp"
	"github.com/seed-e4e525a6/baton/engine/mcp/mcptest"
	"github.com/seed-e4e525a6/baton/engine/sessiontest"
)

// withMCP connects the session to a real MCP server (streamable HTTP on
// loopback) named srv, waiting until its tools are offered.
func withMCP(t *testing.T) func(*engine.Config) {
	t.Helper()
	m := sessiontest.StartMCP(t, mcp.Options{}, mcp.Server{Name: "srv", URL: mcptest.HTTP(t, nil), Source: "test"})
	return func(c *engine.Config) { c.MCP = m }
}

func TestChildGetsOnlyTheMCPToolsItsTypeLists(t *testing.T) {
	cases := []struct {
		name  string
		tools []string
		deny  []string
		want  []string
	}{
		{"exact name", []string{"read_file", "mcp__srv__echo"}, nil, []string{"read_file", "mcp__srv__echo"}},
		{"server pattern", []string{"mcp__srv__*"}, []string{"mcp__srv__crash", "mcp__srv__spawn"},
			[]string{"mcp__srv__echo", "mcp__srv__fail", "mcp__srv__hang", "mcp__srv__image", "mcp__srv__pid", "mcp__srv__roots"}},
		{"none listed", []string{"read_file"}, nil, []string{"read_file"}},
		{"other server", []string{"mcp__github__*"}, nil, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			typ := agenttypes.Type{Name: "probe", Description: "p", Tools: tc.tools}
			s, srv := newTestSession(t, sessiontest.DelegateOnce(`{"description":"d","prompt":"Probe.","subagent_type":"probe"}`,
				func(r *llmtest.Request, w *llmtest.Writer) { w.Text("ok") }),
				func(c *engine.Config) { withMCP(t)(c); withTypes(typ)(c); c.SubagentDeny = tc.deny })
			sessiontest.RunTurn(t, s, "go", nil)
			got := sessiontest.ChildByPrompt(srv.Requests(), "Probe.")[0].ToolNames()
			slices.Sort(got)
			want := slices.Sorted(slices.Values(tc.want))
			if !slices.Equal(got, want) {
				t.Fatalf("child tools %v, want %v", got, want)
			}
		})
	}
}

func TestReadOnlyBuiltinChildCannotCallMCPTools(t *testing.T) {
	child := func(r *llmtest.Request, w *llmtest.Writer) {
		if len(sessiontest.ToolMessages(r)) == 0 {
			w.ToolCalls(llmtest.Call{ID: "x1", Name: "mcp__srv__echo", Args: `{"text":"sneak"}`})
			return
		}
		w.Text("tried")
	}
	s, srv := newTestSession(t, sessiontest.DelegateOnce(`{"description":"d","prompt":"Look.","subagent_type":"explore"}`, child), withMCP(t))
	sessiontest.RunTurn(t, s, "go", nil)
	reqs := sessiontest.ChildByPrompt(srv.Requests(), "Look.")
	if slices.ContainsFunc(reqs[0].ToolNames(), func(n string) bool { return strings.HasPrefix(n, "mcp__") }) {
		t.Fatalf("explore was offered %v", reqs[0].ToolNames())
	}
	got := sessiontest.ToolMessages(reqs[1])
	if len(got) != 1 || !strings.Contains(got[0], `tool "mcp__srv__echo" is not available to this agent`) {
		t.Fatalf("tool result %q", got)
	}
}

// The task tool's description lists a type's tools as a child of it gets
// them: an MCP tool of a server nobody configured is left out, as are
// tools the sub-agent policy denies.
func TestTaskDescriptionListsOnlyToolsAChildWillHave(t *testing.T) {
	typ := agenttypes.Type{Name: "probe", Description: "p",
		Tools: []string{"read_file", "run_command", "mcp__srv__echo", "mcp__github__create_issue", "mcp__github__*", "mcp__srvx__echo"}}
	s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) { w.Text("ok") },
		func(c *engine.Config) { withMCP(t)(c); withTypes(typ)(c); c.SubagentDeny = []string{"run_command"} })
	sessiontest.RunTurn(t, s, "go", nil)
	var desc string
	for _, tool := range srv.Requests()[0].Body.Tools {
		if tool.Function != nil && tool.Function.Name == child.TaskToolName {
			desc = tool.Function.Description
		}
	}
	line := ""
	for _, l := range strings.Split(desc, "\n") {
		if strings.HasPrefix(l, "- probe:") {
			line = l
		}
	}
	if want := "- probe: p (Tools: read_file, mcp__srv__echo)"; line != want {
		t.Fatalf("the task tool describes probe as\n%q, want\n%q", line, want)
	}
}
