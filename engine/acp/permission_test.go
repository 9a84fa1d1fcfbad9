package acp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

// editTwice scripts a model that writes notes.txt, then writes it again
// (a call the rule "always" adds covers), then answers.
func editTwice(req *llmtest.Request, w *llmtest.Writer) {
	switch len(toolResults(req)) {
	case 0:
		w.ToolCalls(llmtest.Call{ID: "w1", Name: "write_file", Args: `{"path":"notes.txt","content":"hello\n"}`})
	case 1:
		w.ToolCalls(llmtest.Call{ID: "w2", Name: "write_file", Args: `{"path":"notes.txt","content":"hello again\n"}`})
	default:
		w.Text("written: " + strings.Join(toolResults(req), " | "))
	}
}

// toolResults are the tool results a request carries.
func toolResults(req *llmtest.Request) []string {
	var out []string
	for _, m := range req.Body.Messages {
		if m.Role == "tool" {
			out = append(out, m.Content)
		}
	}
	return out
}

func TestEditAsksThenWritesThroughTheEditorAndAlwaysAddsTheRule(t *testing.T) {
	r := newRig(t, editTwice)
	r.caps = map[string]any{"fs": map[string]any{"readTextFile": true, "writeTextFile": true}}
	r.permit = func(json.RawMessage) string { return "allow_always" }
	session := r.newSession()
	r.mustPrompt(session, "write the notes")

	r.mu.Lock()
	asked := r.permissions
	notes := filepath.Join(r.ws, "notes.txt")
	buffer, inBuffer := r.buffers[notes]
	r.mu.Unlock()
	if len(asked) != 1 {
		t.Fatalf("%d permission requests; want 1 (the second edit is covered by the rule \"always\" added)", len(asked))
	}
	var req struct {
		SessionID string     `json:"sessionId"`
		ToolCall  toolUpdate `json:"toolCall"`
		Options   []struct {
			OptionID, Name, Kind string
		} `json:"options"`
	}
	if err := json.Unmarshal(asked[0], &req); err != nil {
		t.Fatal(err)
	}
	if req.SessionID != session || req.ToolCall.Status != "pending" {
		t.Errorf("permission request: session %q status %q", req.SessionID, req.ToolCall.Status)
	}
	if len(req.ToolCall.Content) != 1 || req.ToolCall.Content[0].Type != "diff" || req.ToolCall.Content[0].Path != notes ||
		req.ToolCall.Content[0].NewText != "hello" || req.ToolCall.Content[0].OldText != nil {
		t.Errorf("the card's content is not the new file's diff: %+v", req.ToolCall.Content)
	}
	var offered []string
	for _, o := range req.Options {
		offered = append(offered, o.OptionID+"/"+o.Kind+"/"+o.Name)
	}
	want := []string{"allow_once/allow_once/Allow once", "allow_always/allow_always/Always allow write_file(notes.txt)", "reject_once/reject_once/Deny"}
	if strings.Join(offered, "\n") != strings.Join(want, "\n") {
		t.Errorf("options:\n%s\nwant:\n%s", strings.Join(offered, "\n"), strings.Join(want, "\n"))
	}
	if !inBuffer || buffer != "hello again\n" {
		t.Errorf("the editor's buffer holds %q (present %v); want the edited text", buffer, inBuffer)
	}
	if _, err := os.Stat(notes); !os.IsNotExist(err) {
		t.Errorf("baton wrote the disk itself (stat: %v); the editor should have", err)
	}
	if r.client.Requests("fs/read_text_file") == 0 {
		t.Error("the edit did not read the file through the editor")
	}
	var finished []toolUpdate
	for _, u := range toolUpdates(r.client.Updates()) {
		if u.Status == "completed" {
			finished = append(finished, u)
		}
	}
	if len(finished) != 2 || finished[1].Content[0].Type != "diff" || *finished[1].Content[0].OldText != "hello" ||
		finished[1].Content[0].NewText != "hello again" {
		t.Errorf("finished edits: %+v", finished)
	}
}

func TestRejectedEditFailsTheCallAndTellsTheModel(t *testing.T) {
	r := newRig(t, editTwice)
	r.permit = func(json.RawMessage) string { return "reject_once" }
	session := r.newSession()
	r.mustPrompt(session, "write the notes")
	if _, err := os.Stat(filepath.Join(r.ws, "notes.txt")); !os.IsNotExist(err) {
		t.Fatalf("a rejected write happened (stat: %v)", err)
	}
	results := toolResults(r.llm.Requests()[1])
	if len(results) != 1 || !strings.Contains(results[0], "denied") {
		t.Errorf("the model was told %q", results)
	}
	var failed bool
	for _, u := range toolUpdates(r.client.Updates()) {
		failed = failed || (u.Status == "failed" && len(u.Content) > 0 && u.Content[0].Content.Text == "denied")
	}
	if !failed {
		t.Error("no failed tool call saying denied")
	}
}

func TestAnOptionBatonDidNotOfferDenies(t *testing.T) {
	r := newRig(t, editTwice)
	r.permit = func(json.RawMessage) string { return "allow_everything_forever" }
	session := r.newSession()
	r.mustPrompt(session, "write the notes")
	if _, err := os.Stat(filepath.Join(r.ws, "notes.txt")); !os.IsNotExist(err) {
		t.Fatalf("an unknown option allowed the write (stat: %v)", err)
	}
}

func TestAutoAcceptModeEditsWithoutAsking(t *testing.T) {
	r := newRig(t, editTwice)
	session := r.newSession()
	if err := r.client.Call("session/set_mode", map[string]any{"sessionId": session, "modeId": "auto-accept"}, nil); err != nil {
		t.Fatal(err)
	}
	r.mustPrompt(session, "write the notes")
	data, err := os.ReadFile(filepath.Join(r.ws, "notes.txt"))
	if err != nil || string(data) != "hello again\n" {
		t.Fatalf("notes.txt = %q, %v", data, err)
	}
	if n := r.client.Requests("session/request_permission"); n != 0 {
		t.Errorf("%d permission requests in auto-accept mode", n)
	}
}

func TestPlanModeRunsReadOnlyToolsOnly(t *testing.T) {
	r := newRig(t, editTwice)
	session := r.newSession()
	var resp struct {
		ConfigOptions []struct {
			ID, CurrentValue string
		} `json:"configOptions"`
	}
	if err := r.client.Call("session/set_config_option", map[string]any{"sessionId": session, "configId": "mode", "value": "plan"}, &resp); err != nil {
		t.Fatal(err)
	}
	if len(resp.ConfigOptions) == 0 || resp.ConfigOptions[0].CurrentValue != "plan" {
		t.Errorf("config options after the switch: %+v", resp.ConfigOptions)
	}
	r.mustPrompt(session, "write the notes")
	if _, err := os.Stat(filepath.Join(r.ws, "notes.txt")); !os.IsNotExist(err) {
		t.Fatalf("plan mode wrote a file (stat: %v)", err)
	}
	if n := r.client.Requests("session/request_permission"); n != 0 {
		t.Errorf("plan mode asked %d times; it should refuse", n)
	}
	results := toolResults(r.llm.Requests()[1])
	if len(results) != 1 || !strings.Contains(results[0], "plan mode") {
		t.Errorf("the model was told %q", results)
	}
	if err := r.client.Call("session/set_mode", map[string]any{"sessionId": session, "modeId": "reckless"}, nil); err == nil {
		t.Error("an unknown mode was accepted")
	}
}

// In plan mode the model's plan is put to the editor as a permission
// request of kind switch_mode; "Yes, and auto-accept edits" ends plan
// mode (the editor is told the new mode) and the write then runs
// without asking.
func TestPlanAcceptedInTheEditorEndsPlanMode(t *testing.T) {
	r := newRig(t, func(req *llmtest.Request, w *llmtest.Writer) {
		switch results := toolResults(req); {
		case len(results) == 0:
			w.ToolCalls(llmtest.Call{ID: "p1", Name: "exit_plan_mode", Args: `{"plan":"write notes.txt"}`})
		case len(results) == 1:
			w.ToolCalls(llmtest.Call{ID: "w1", Name: "write_file", Args: `{"path":"notes.txt","content":"planned\n"}`})
		default:
			w.Text("done")
		}
	})
	var asked []json.RawMessage
	r.permit = func(params json.RawMessage) string {
		asked = append(asked, params)
		return "allow_always"
	}
	session := r.newSession()
	if err := r.client.Call("session/set_mode", map[string]any{"sessionId": session, "modeId": "plan"}, nil); err != nil {
		t.Fatal(err)
	}
	r.mustPrompt(session, "plan the notes")
	if len(asked) != 1 || !strings.Contains(string(asked[0]), "write notes.txt") || !strings.Contains(string(asked[0]), "auto-accept edits") {
		t.Fatalf("the editor was asked %d times: %s", len(asked), asked)
	}
	if data, err := os.ReadFile(filepath.Join(r.ws, "notes.txt")); err != nil || string(data) != "planned\n" {
		t.Fatalf("notes.txt = %q, %v", data, err)
	}
	var modes []string
	for _, u := range r.client.Updates() {
		if u.Kind == "current_mode_update" {
			var m struct {
				CurrentModeID string `json:"currentModeId"`
			}
			_ = u.Field(&m)
			modes = append(modes, m.CurrentModeID)
		}
	}
	if len(modes) != 1 || modes[0] != "auto-accept" {
		t.Errorf("mode updates = %v, want [auto-accept]", modes)
	}
}
