package acp

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

// isChild reports whether a request comes from a child: only the main
// agent is offered the task tool.
func isChild(r *llmtest.Request) bool {
	for _, name := range r.ToolNames() {
		if name == child.TaskToolName {
			return false
		}
	}
	return true
}

// delegate scripts a main agent that hands one task to a child of type
// kind; the child makes the call given, then reports.
func delegate(kind string, childCall llmtest.Call) llmtest.Responder {
	return func(req *llmtest.Request, w *llmtest.Writer) {
		results := toolResults(req)
		switch {
		case isChild(req) && len(results) == 0:
			w.ToolCalls(childCall)
		case isChild(req):
			w.Text("child report: " + results[0])
		case len(results) == 0:
			w.ToolCalls(llmtest.Call{ID: "t1", Name: "task", Args: `{"description":"find the notes","prompt":"Find where the notes live.","subagent_type":"` + kind + `"}`})
		default:
			w.Text("the child said: " + results[0])
		}
	}
}

func TestChildIsOneToolCallWithProgressAndSummary(t *testing.T) {
	r := newRig(t, delegate("explore", llmtest.Call{ID: "c1", Name: "read_file", Args: `{"path":"notes.txt"}`}))
	r.writeWorkspaceFile("notes.txt", "the notes live here\n")
	session := r.newSession()
	r.mustPrompt(session, "where are the notes?")

	updates := toolUpdates(r.client.Updates())
	if len(updates) == 0 || updates[0].Title != "task [Explore] find the notes" || updates[0].Kind != "think" {
		t.Fatalf("first tool update: %+v", updates)
	}
	task := updates[0].ToolCallID
	var titled, progressed bool
	var last toolUpdate
	for _, u := range updates {
		if u.ToolCallID != task {
			t.Errorf("the child's work showed as another call: %+v", u)
			continue
		}
		titled = titled || u.Title == "[Explore] find the notes"
		for _, c := range u.Content {
			progressed = progressed || strings.Contains(c.Content.Text, "[Explore] find the notes ... 1 tool, ") &&
				strings.HasSuffix(c.Content.Text, "· read_file notes.txt")
		}
		last = u
	}
	if !titled || !progressed {
		t.Errorf("the child's call was not titled (%v) or showed no progress line (%v):\n%+v", titled, progressed, updates)
	}
	if last.Status != "completed" || len(last.Content) != 1 ||
		!strings.HasPrefix(last.Content[0].Content.Text, "[Explore] find the notes - done (1 tool, ") ||
		!strings.Contains(last.Content[0].Content.Text, "child report:") {
		t.Errorf("the child's call did not end with its summary: %+v", last)
	}

	r.mu.Lock()
	asked := r.permissions
	r.mu.Unlock()
	if len(asked) != 1 {
		t.Fatalf("%d permission requests; want the delegation's", len(asked))
	}
	var req struct {
		ToolCall toolUpdate `json:"toolCall"`
		Options  []struct{ OptionID, Name string }
	}
	_ = json.Unmarshal(asked[0], &req)
	if req.ToolCall.ToolCallID != task || req.ToolCall.Title != "[Explore] find the notes" ||
		!strings.Contains(req.ToolCall.Content[0].Content.Text, "Find where the notes live.") {
		t.Errorf("the delegation card: %+v", req.ToolCall)
	}
	if len(req.Options) != 3 || req.Options[1].Name != "Always allow Explore sub-agents" {
		t.Errorf("the delegation card's options: %+v", req.Options)
	}
}

func TestDeniedDelegationEndsTheChildCallFailed(t *testing.T) {
	r := newRig(t, delegate("explore", llmtest.Call{ID: "c1", Name: "read_file", Args: `{"path":"notes.txt"}`}))
	r.permit = func(json.RawMessage) string { return "reject_once" }
	session := r.newSession()
	r.mustPrompt(session, "where are the notes?")
	updates := toolUpdates(r.client.Updates())
	last := updates[len(updates)-1]
	if last.Status != "failed" || !strings.Contains(last.Content[0].Content.Text, "denied") {
		t.Errorf("a denied delegation ended as %+v", last)
	}
	for _, req := range r.llm.Requests() {
		if isChild(req) {
			t.Fatal("a denied child reached the model")
		}
	}
}

func TestChildApprovalIsLabelledWithTheChild(t *testing.T) {
	r := newRig(t, delegate("test", llmtest.Call{ID: "c1", Name: "run_command", Args: `{"command":"echo child-ran"}`}))
	session := r.newSession()
	r.mustPrompt(session, "run the tests")
	r.mu.Lock()
	asked := r.permissions
	r.mu.Unlock()
	if len(asked) != 2 {
		t.Fatalf("%d permission requests; want the delegation's and the child's command", len(asked))
	}
	var req struct {
		ToolCall toolUpdate `json:"toolCall"`
	}
	_ = json.Unmarshal(asked[1], &req)
	if req.ToolCall.Title != "[Test] find the notes: run_command echo child-ran" {
		t.Errorf("the child's card is titled %q", req.ToolCall.Title)
	}
	var announced, finished bool
	for _, u := range toolUpdates(r.client.Updates()) {
		if u.ToolCallID != req.ToolCall.ToolCallID {
			continue
		}
		announced = announced || (u.Kind == "execute" && u.Status == "pending")
		finished = finished || u.Status == "completed"
	}
	if !announced || !finished {
		t.Errorf("the child's call was not shown before its card (%v) or not ended (%v)", announced, finished)
	}
	final := r.llm.Requests()[len(r.llm.Requests())-1]
	if results := toolResults(final); len(results) != 1 || !strings.Contains(results[0], "child-ran") {
		t.Errorf("the main agent got %q", results)
	}
}
