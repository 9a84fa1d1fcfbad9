package engine

import (
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

func TestContextFiles(t *testing.T) {
	ws := t.TempDir()
	writeFile(t, ws, "AGENTS.md", "Use tabs, never spaces.")
	writeFile(t, ws, "CLAUDE.md", "CLAUDE-ONLY note.")
	writeFile(t, ws, "web/AGENTS.md", "Web code uses ES modules.")
	writeFile(t, ws, "web/app.js", "export const a = 1\n")
	writeFile(t, ws, "web/other.js", "export const b = 2\n")
	s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case isChild(r):
			w.Text("child done")
		case len(toolMessages(r)) == 0:
			w.ToolCalls(llmtest.Call{ID: "r1", Name: "read_file", Args: `{"path":"web/app.js"}`},
				llmtest.Call{ID: "r2", Name: "read_file", Args: `{"path":"web/other.js"}`},
				taskCall("t1", "explore", "look", "Look around."))
		default:
			w.Text("done")
		}
	}, func(c *Config) { c.Workspace = ws })
	runTurn(t, s, "go", nil)
	first := srv.Requests()[0]
	contains(t, "main system prompt", first.System(), "Use tabs, never spaces.")
	if strings.Contains(first.System(), "CLAUDE-ONLY") {
		t.Fatal("CLAUDE.md must be used only when there is no AGENTS.md")
	}
	child := childByPrompt(srv.Requests(), "Look around.")[0]
	contains(t, "child system prompt", child.System(), "Use tabs, never spaces.")
	results := toolMessages(srv.Requests()[len(srv.Requests())-1])
	contains(t, "first read in web/", results[0], "Web code uses ES modules.")
	if strings.Contains(results[1], "ES modules") {
		t.Fatal("a nested AGENTS.md must be given once per agent")
	}
}

func TestClaudeMDWhenNoAgentsMD(t *testing.T) {
	ws := t.TempDir()
	writeFile(t, ws, "CLAUDE.md", "CLAUDE-ONLY note.")
	s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case isChild(r):
			w.Text("child done")
		case len(toolMessages(r)) == 0:
			w.ToolCalls(taskCall("t1", "explore", "look", "Look around."))
		default:
			w.Text("done")
		}
	}, func(c *Config) { c.Workspace = ws })
	runTurn(t, s, "go", nil)
	contains(t, "main system prompt", srv.Requests()[0].System(), "CLAUDE-ONLY note.")
	if strings.Contains(childByPrompt(srv.Requests(), "Look around.")[0].System(), "CLAUDE-ONLY") {
		t.Fatal("children get AGENTS.md only")
	}
}
