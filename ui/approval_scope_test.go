package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

// TestScopedAlwaysNeverLetsRmThrough: "always" on a go test card adds
// run_command(go test:*); the next go test runs unasked, and every
// command that hides rm behind it (&&, ;, |, a subshell, a command
// substitution) gets a card of its own.
func TestScopedAlwaysNeverLetsRmThrough(t *testing.T) {
	commands := []string{
		"go version", "go version -m", "go version && rm victim", "go version; rm victim",
		"go version | rm victim", "(go version; rm victim)", "go version $(rm victim)",
	}
	tm, srv, dir := wholeProgram(t, func(req *llmtest.Request, w *llmtest.Writer) {
		n := len(toolResults(req))
		if n < len(commands) {
			w.ToolCalls(llmtest.Call{ID: fmt.Sprintf("r%d", n), Name: "run_command", Args: fmt.Sprintf(`{"command":%q}`, commands[n])})
			return
		}
		w.Text("all commands done")
	}, nil)
	if err := os.WriteFile(filepath.Join(dir, "victim"), []byte("keep me\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	submit(tm, "check the toolchain")
	waitFor(t, tm, `a always allow "go version …"`)
	tm.Type("a")
	for _, cmd := range commands[2:] {
		waitFor(t, tm, cmd)
		denyWithReason(t, tm, "no rm")
	}
	waitFor(t, tm, "all commands done")
	quitProgram(t, tm)
	if _, err := os.Stat(filepath.Join(dir, "victim")); err != nil {
		t.Fatalf("rm ran behind an allowed prefix: %v", err)
	}
	results := toolResults(srv.Requests()[len(srv.Requests())-1])
	if strings.Contains(results[1], "denied") {
		t.Errorf("the allowed prefix still asked: %q", results[1])
	}
	for i, r := range results[2:] {
		if !strings.Contains(r, "no rm") {
			t.Errorf("%q was not refused: %q", commands[i+2], r)
		}
	}
}

// TestChildInheritanceShownOnTheCard: the delegation card lists the
// standing rule the child inherits; the approved child writes there
// unasked and asks on its own card, labelled with the child, elsewhere.
func TestChildInheritanceShownOnTheCard(t *testing.T) {
	tm, _, dir := wholeProgram(t, func(req *llmtest.Request, w *llmtest.Writer) {
		isChild := !strings.Contains(strings.Join(req.ToolNames(), " "), child.TaskToolName)
		n := len(toolResults(req))
		switch {
		case isChild && n == 0:
			w.ToolCalls(llmtest.Call{ID: "c1", Name: "write_file", Args: `{"path":"docs/guide.md","content":"# guide\n"}`})
		case isChild && n == 1:
			w.ToolCalls(llmtest.Call{ID: "c2", Name: "write_file", Args: `{"path":"src/main.go","content":"package main\n"}`})
		case isChild:
			w.Text("wrote both")
		case n == 0:
			w.ToolCalls(llmtest.Call{ID: "t1", Name: child.TaskToolName,
				Args: `{"description":"write the guide","prompt":"Write docs and code.","subagent_type":"general-purpose"}`})
		default:
			w.Text("the child is done")
		}
	}, []event.PermissionRule{{Kind: "allow", Rule: "write_file(docs/**)", Source: event.SourceUser}})
	submit(tm, "document it")
	waitForAll(t, tm, "Delegate?", "inherits: write_file(docs/**)")
	waitFor(t, tm, "y approve ·")
	tm.Type("y")
	waitForAll(t, tm, "write the guide asks: Allow write_file?", "src/main.go")
	if _, err := os.Stat(filepath.Join(dir, "docs", "guide.md")); err != nil {
		t.Fatalf("the inherited rule did not let the child write docs/: %v", err)
	}
	waitFor(t, tm, "y allow once ·")
	tm.Type("y")
	waitFor(t, tm, "the child is done")
	quitProgram(t, tm)
	if _, err := os.Stat(filepath.Join(dir, "src", "main.go")); err != nil {
		t.Fatalf("the child's own card did not allow src/main.go: %v", err)
	}
}

// toolResults are a request's tool results, in order.
func toolResults(req *llmtest.Request) []string {
	var out []string
	for _, m := range req.Body.Messages {
		if m.Role == "tool" {
			out = append(out, m.Content)
		}
	}
	return out
}
