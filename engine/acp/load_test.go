package acp

import (
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/acp/acptest"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

// readThenAnswer scripts a model that reads notes.txt once, then answers
// with the number of requests it has seen of the conversation.
func readThenAnswer(req *llmtest.Request, w *llmtest.Writer) {
	last := req.Body.Messages[len(req.Body.Messages)-1]
	switch {
	case last.Role == "user" && last.Content == "read the notes":
		w.ToolCalls(llmtest.Call{ID: "r1", Name: "read_file", Args: `{"path":"notes.txt"}`})
	case last.Role == "tool":
		w.Text("The notes say hello.")
	default:
		w.Text("I remember " + last.Content)
	}
}

func TestLoadReplaysTheSessionThenContinuesIt(t *testing.T) {
	r := newRig(t, readThenAnswer)
	r.writeWorkspaceFile("notes.txt", "hello\n")
	session := r.newSession()
	r.mustPrompt(session, "read the notes")

	r.reconnect()
	r.initialize()
	var list struct {
		Sessions []struct {
			SessionID, Cwd, Title string
		} `json:"sessions"`
	}
	if err := r.client.Call("session/list", map[string]any{"cwd": r.ws}, &list); err != nil {
		t.Fatal(err)
	}
	if len(list.Sessions) != 1 || list.Sessions[0].SessionID != session || list.Sessions[0].Title != "read the notes" {
		t.Fatalf("session/list: %+v", list.Sessions)
	}
	var loaded struct {
		Modes struct {
			CurrentModeID string `json:"currentModeId"`
		} `json:"modes"`
	}
	if err := r.client.Call("session/load", map[string]any{"sessionId": session, "cwd": r.ws, "mcpServers": []any{}}, &loaded); err != nil {
		t.Fatal(err)
	}
	if loaded.Modes.CurrentModeID != "normal" {
		t.Errorf("loaded mode = %q", loaded.Modes.CurrentModeID)
	}
	// The replay came before the answer to session/load.
	replayed := r.client.Updates()
	var kinds []string
	for _, u := range replayed {
		kinds = append(kinds, u.Kind)
	}
	if got := strings.Join(kinds, " "); got != "user_message_chunk tool_call tool_call_update agent_message_chunk" {
		t.Fatalf("replayed updates: %s", got)
	}
	if answerText(replayed, "user_message_chunk") != "read the notes" || answerText(replayed, "agent_message_chunk") != "The notes say hello." {
		t.Errorf("replayed messages: %q / %q", answerText(replayed, "user_message_chunk"), answerText(replayed, "agent_message_chunk"))
	}
	calls := toolUpdates(replayed)
	if calls[0].Title != "read_file notes.txt" || calls[1].Status != "completed" || !strings.Contains(calls[1].Content[0].Content.Text, "hello") {
		t.Errorf("replayed tool call: %+v", calls)
	}
	for _, u := range replayed {
		if u.SessionID != session {
			t.Errorf("an update for session %q", u.SessionID)
		}
	}

	r.mustPrompt(session, "what did we do?")
	if got := answerText(r.client.Updates()[len(replayed):], "agent_message_chunk"); got != "I remember what did we do?" {
		t.Errorf("answer after load = %q", got)
	}
	history := r.llm.Requests()[len(r.llm.Requests())-1].Body.Messages
	var sawRead bool
	for _, m := range history {
		sawRead = sawRead || (m.Role == "tool" && strings.Contains(m.Content, "hello"))
	}
	if !sawRead {
		t.Error("the loaded session's history did not reach the model")
	}
}

func TestLoadOfAnUnknownSessionIsNotFound(t *testing.T) {
	r := newRig(t, readThenAnswer)
	r.initialize()
	err := r.client.Call("session/load", map[string]any{"sessionId": "20260101-0000-zzzz", "cwd": r.ws, "mcpServers": []any{}}, nil)
	if err == nil || !strings.Contains(err.Error(), "-32002") {
		t.Fatalf("err = %v, want resource not found", err)
	}
}

func TestClosedSessionTakesNoPrompt(t *testing.T) {
	r := newRig(t, readThenAnswer)
	session := r.newSession()
	if err := r.client.Call("session/close", map[string]any{"sessionId": session}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := r.prompt(session, "hello"); err == nil || !strings.Contains(err.Error(), "-32002") {
		t.Fatalf("prompt after close: %v", err)
	}
}

func TestModelListReachesTheClientAndSwitchesTheModel(t *testing.T) {
	r := newRig(t, func(req *llmtest.Request, w *llmtest.Writer) { w.Text("answered by " + req.Body.Model) })
	r.llm.ServeModels("test-model", "other-model")
	session := r.newSession()
	r.client.WaitUpdate(0, func(u acptest.Update) bool {
		return u.Kind == "config_option_update" && strings.Contains(string(u.Raw), `"value":"other-model"`)
	})
	if err := r.client.Call("session/set_config_option", map[string]any{"sessionId": session, "configId": "model", "value": "no-such-model"}, nil); err == nil {
		t.Error("a model the endpoint does not serve was accepted")
	}
	if err := r.client.Call("session/set_config_option", map[string]any{"sessionId": session, "configId": "model", "value": "other-model"}, nil); err != nil {
		t.Fatal(err)
	}
	r.mustPrompt(session, "who answers?")
	if got := r.llm.Requests()[0].Body.Model; got != "other-model" {
		t.Errorf("the request went to %q", got)
	}
}
