package engine

import (
	"encoding/json"
	"fmt"
	"net"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/sandbox"
)

// TestSubagentCommandsHaveNoNetwork runs the same TCP connect to a
// loopback listener from the main agent and from a sub-agent through
// the whole engine: the kernel refuses the child's, lets the parent's
// through, and a type whose agent file says network: on gets it too.
func TestSubagentCommandsHaveNoNetwork(t *testing.T) {
	if !sandbox.Available() || sandbox.ABI() < 4 {
		t.Skipf("this kernel cannot restrict the network (Landlock ABI %d)", sandbox.ABI())
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("the connect command uses bash's /dev/tcp")
	}
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	// Ends when the deferred Close stops the listener.
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	connect, _ := json.Marshal(map[string]string{"command": fmt.Sprintf("exec 3<>/dev/tcp/127.0.0.1/%d && echo connected", ln.Addr().(*net.TCPAddr).Port)})
	respond := func(r *llmtest.Request, w *llmtest.Writer) {
		last := r.Body.Messages[len(r.Body.Messages)-1]
		isChild := !strings.Contains(r.System(), "You are baton")
		switch {
		case last.Role == "user" && isChild:
			w.ToolCalls(llmtest.Call{ID: "c1", Name: "run_command", Args: string(connect)})
		case last.Role == "user":
			w.ToolCalls(llmtest.Call{ID: "m1", Name: "run_command", Args: string(connect)},
				llmtest.Call{ID: "m2", Name: child.TaskToolName, Args: `{"description":"connect","prompt":"connect","subagent_type":"test"}`},
				llmtest.Call{ID: "m3", Name: child.TaskToolName, Args: `{"description":"connect","prompt":"connect","subagent_type":"netty"}`},
				llmtest.Call{ID: "m4", Name: child.TaskToolName, Args: `{"description":"connect","prompt":"connect","subagent_type":"repo"}`})
		case isChild:
			w.Text("child saw: " + last.Content)
		default:
			w.Text("done")
		}
	}
	netty := agenttypes.Type{Name: "netty", DisplayName: "Netty", Description: "has the network", SystemPrompt: "test",
		Tools: []string{"run_command"}, Model: agenttypes.InheritModel, Source: "/elsewhere/netty.md", SandboxNetwork: "on"}
	s, srv := newTestSession(t, respond, func(c *Config) {
		// The same file in the repository may not widen the sandbox.
		repo := netty
		repo.Name, repo.DisplayName, repo.Source = "repo", "Repo", filepath.Join(c.Workspace, ".baton", "agents", "repo.md")
		c.Types = agenttypes.NewRegistry(append(agenttypes.Builtins(), netty, repo)...)
	})
	log := runTurn(t, s, "connect everywhere", nil)
	results := map[string]string{}
	for _, m := range srv.Requests()[len(srv.Requests())-1].Body.Messages {
		if m.Role == "tool" {
			results[m.ToolCallID] = m.Content
		}
	}
	if !strings.Contains(results["m1"], "connected") {
		t.Errorf("the main agent's connect failed: %q", results["m1"])
	}
	if !strings.Contains(results["m2"], "Permission denied") || strings.Contains(results["m2"], "connected") {
		t.Errorf("the test sub-agent's connect was not refused by the kernel: %q", results["m2"])
	}
	if !strings.Contains(results["m3"], "connected") {
		t.Errorf("a type with sandbox network on could not connect: %q", results["m3"])
	}
	if !strings.Contains(results["m4"], "Permission denied") {
		t.Errorf("a repository agent file turned the network on: %q", results["m4"])
	}
	var boxes []string
	for _, e := range eventsOf[event.AgentStarted](log) {
		boxes = append(boxes, e.AgentType+": "+e.Sandbox)
	}
	if got := strings.Join(boxes, " | "); !strings.Contains(got, "Test: workspace-write · network off") || !strings.Contains(got, "Netty: workspace-write · network on") {
		t.Errorf("AgentStarted sandboxes: %s", got)
	}
}
