package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

// sdkClientDir holds the script that drives baton acp with the official
// ACP TypeScript SDK, and its package-lock.json (.ci/run installs it).
const sdkClientDir = "testdata/acp-client"

// editorScript is the scripted endpoint behind the ACP tests: each of the
// person's prompts is one scenario, told apart by the main agent's last
// user message; the child is told apart by its lack of the task tool.
func editorScript(req *llmtest.Request, w *llmtest.Writer) {
	var lastUser string
	for _, m := range req.Body.Messages {
		if m.Role == "user" {
			lastUser = m.Content
		}
	}
	results := 0
	for i := len(req.Body.Messages) - 1; i >= 0 && req.Body.Messages[i].Role != "user"; i-- {
		if req.Body.Messages[i].Role == "tool" {
			results++
		}
	}
	last := req.Body.Messages[len(req.Body.Messages)-1]
	child := !strings.Contains(strings.Join(req.ToolNames(), " "), "task")
	switch {
	case child && results == 0:
		w.ToolCalls(llmtest.Call{ID: "c1", Name: "read_file", Args: `{"path":"notes.txt"}`})
	case child:
		w.Text("The notes read: " + last.Content)
	case lastUser == "say hello":
		w.Text("Hello from baton, streamed in pieces.")
	case lastUser == "edit the notes" && results == 0:
		w.ToolCalls(llmtest.Call{ID: "e1", Name: "write_file", Args: `{"path":"notes.txt","content":"edited by baton\n"}`})
	case lastUser == "edit the notes":
		w.Text("The notes are edited.")
	case lastUser == "wait forever":
		w.Chunk(`{"choices":[{"index":0,"delta":{"content":"Thinking it over"}}]}`)
		<-w.Context().Done()
	case lastUser == "delegate the reading" && results == 0:
		w.ToolCalls(llmtest.Call{ID: "t1", Name: "task", Args: `{"description":"read the notes","prompt":"Read notes.txt and say what it holds.","subagent_type":"explore"}`})
	case lastUser == "delegate the reading":
		w.Text("The explorer reported back.")
	default:
		w.Text("unscripted: " + lastUser)
	}
}

// sdkUpdate is a session/update as the SDK received it.
type sdkUpdate struct {
	SessionID string `json:"sessionId"`
	Update    struct {
		SessionUpdate string `json:"sessionUpdate"`
		Content       json.RawMessage
		ToolCallID    string `json:"toolCallId"`
		Title         string `json:"title"`
		Kind          string `json:"kind"`
		Status        string `json:"status"`
	} `json:"update"`
}

// texts are the update's text contents: a chunk's text, or the text of
// each of a tool call's contents.
func (u sdkUpdate) texts() []string {
	var chunk struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(u.Update.Content, &chunk) == nil && chunk.Text != "" {
		return []string{chunk.Text}
	}
	var items []struct {
		Type    string `json:"type"`
		Path    string `json:"path"`
		NewText string `json:"newText"`
		Content struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	_ = json.Unmarshal(u.Update.Content, &items)
	var out []string
	for _, it := range items {
		switch it.Type {
		case "diff":
			out = append(out, "diff "+it.Path+": "+it.NewText)
		case "content":
			out = append(out, it.Content.Text)
		}
	}
	return out
}

// sdkFacts is what client.mjs saw.
type sdkFacts struct {
	Problems []string `json:"problems"`
	Init     struct {
		ProtocolVersion   int `json:"protocolVersion"`
		AgentCapabilities struct {
			LoadSession bool `json:"loadSession"`
		} `json:"agentCapabilities"`
		AuthMethods []any `json:"authMethods"`
	} `json:"init"`
	NewSession struct {
		SessionID string `json:"sessionId"`
		Modes     struct {
			CurrentModeID  string `json:"currentModeId"`
			AvailableModes []struct {
				ID string `json:"id"`
			} `json:"availableModes"`
		} `json:"modes"`
	} `json:"newSession"`
	Permissions []struct {
		ToolCall struct {
			ToolCallID string `json:"toolCallId"`
			Title      string `json:"title"`
		} `json:"toolCall"`
		Options []struct {
			OptionID, Name, Kind string
		} `json:"options"`
	} `json:"permissions"`
	Reads  []string `json:"reads"`
	Writes []struct {
		Path, Content string
	} `json:"writes"`
	Stops    map[string]string      `json:"stops"`
	Segments map[string][]sdkUpdate `json:"segments"`
	Exits    []struct {
		Code   *int    `json:"code"`
		Signal *string `json:"signal"`
	} `json:"exits"`
}

// joined is every text of a segment's updates of one kind.
func joined(updates []sdkUpdate, kind string) string {
	var b strings.Builder
	for _, u := range updates {
		if u.Update.SessionUpdate == kind {
			b.WriteString(strings.Join(u.texts(), "\n"))
		}
	}
	return b.String()
}

// TestACPWithTheOfficialSDK drives baton acp, a real process, with the
// official TypeScript SDK's client against the scripted endpoint: a
// streamed answer, an edit the client allows "always" and receives
// through fs/write_text_file, a cancel, a delegation whose child reads
// the editor's unsaved buffer, and a session loaded on a new connection.
func TestACPWithTheOfficialSDK(t *testing.T) {
	t.Parallel()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: this test drives baton acp with the official ACP TypeScript SDK and needs Node.js")
	}
	if _, err := os.Stat(filepath.Join(sdkClientDir, "node_modules", "@agentclientprotocol", "sdk")); err != nil {
		t.Fatalf("the ACP SDK is not installed: run npm ci --prefix cmd/baton/%s (.ci/run does)", sdkClientDir)
	}
	srv := llmtest.NewServer(t, editorScript)
	ws, home := t.TempDir(), t.TempDir()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	script, err := filepath.Abs(filepath.Join(sdkClientDir, "client.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute) // a hang guard, not a timing check
	defer cancel()
	cmd := exec.CommandContext(ctx, node, script, self, ws)
	cmd.Dir = ws
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_STATE_HOME=", "XDG_CONFIG_HOME=", "OPENAI_BASE_URL="+srv.URL,
		childArgsEnv+"=acp")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("client.mjs: %v\nstderr:\n%s\nstdout:\n%s", err, stderr.String(), out)
	}
	var f sdkFacts
	if err := json.Unmarshal(out, &f); err != nil {
		t.Fatalf("client.mjs printed %q: %v", out, err)
	}
	if len(f.Problems) > 0 {
		t.Errorf("the SDK reported problems with baton's messages:\n%s", strings.Join(f.Problems, "\n"))
	}

	if f.Init.ProtocolVersion != 1 || !f.Init.AgentCapabilities.LoadSession || f.Init.AuthMethods == nil || len(f.Init.AuthMethods) != 0 {
		t.Errorf("initialize: %+v", f.Init)
	}
	if f.NewSession.SessionID == "" || f.NewSession.Modes.CurrentModeID != "normal" || len(f.NewSession.Modes.AvailableModes) != 3 {
		t.Errorf("session/new: %+v", f.NewSession)
	}
	for name, want := range map[string]string{"hello": "end_turn", "edit": "end_turn", "cancel": "cancelled", "delegate": "end_turn", "afterLoad": "end_turn"} {
		if f.Stops[name] != want {
			t.Errorf("the %s prompt stopped with %q, want %q", name, f.Stops[name], want)
		}
	}

	hello := f.Segments["hello"]
	if got := joined(hello, "agent_message_chunk"); got != "Hello from baton, streamed in pieces." || len(hello) < 2 {
		t.Errorf("streamed answer %q in %d updates", got, len(hello))
	}

	notes := filepath.Join(ws, "notes.txt")
	if len(f.Permissions) < 1 || f.Permissions[0].ToolCall.Title != "write_file notes.txt" {
		t.Fatalf("the edit's permission request: %+v", f.Permissions)
	}
	var always string
	for _, o := range f.Permissions[0].Options {
		if o.OptionID == "allow_always" {
			always = o.Name
		}
	}
	if always != "Always allow write_file(notes.txt)" {
		t.Errorf("the edit's options: %+v", f.Permissions[0].Options)
	}
	if len(f.Writes) != 1 || f.Writes[0].Path != notes || f.Writes[0].Content != "edited by baton\n" {
		t.Errorf("fs/write_text_file: %+v", f.Writes)
	}
	if _, err := os.Stat(notes); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("baton wrote notes.txt itself (stat: %v); the editor should have", err)
	}
	if got := joined(f.Segments["edit"], "tool_call_update"); !strings.Contains(got, "diff "+notes+": edited by baton") {
		t.Errorf("the edit's tool call shows no diff: %q", got)
	}

	if got := joined(f.Segments["cancel"], "agent_message_chunk"); got != "Thinking it over" {
		t.Errorf("the cancelled turn streamed %q", got)
	}

	delegated := f.Segments["delegate"]
	if len(f.Permissions) != 2 || f.Permissions[1].ToolCall.Title != "[Explore] read the notes" {
		t.Errorf("the delegation's permission request: %+v", f.Permissions)
	}
	progress := joined(delegated, "tool_call_update")
	for _, want := range []string{"[Explore] read the notes ... 1 tool, ", "· read_file notes.txt",
		"[Explore] read the notes - done (1 tool, ", "The notes read: "} {
		if !strings.Contains(progress, want) {
			t.Errorf("the child's updates lack %q:\n%s", want, progress)
		}
	}
	if !strings.Contains(progress, "edited by baton") {
		t.Errorf("the child did not read the editor's unsaved buffer:\n%s", progress)
	}
	if !slicesContain(f.Reads, notes) {
		t.Errorf("no fs/read_text_file of notes.txt: %q", f.Reads)
	}

	load := f.Segments["load"]
	if got := joined(load, "user_message_chunk"); got != "say helloedit the noteswait foreverdelegate the reading" {
		t.Errorf("replayed prompts: %q", got)
	}
	if got := joined(load, "agent_message_chunk"); got != "Hello from baton, streamed in pieces.The notes are edited.Thinking it overThe explorer reported back." {
		t.Errorf("replayed answers: %q", got)
	}
	if got := joined(load, "tool_call_update"); !strings.Contains(got, "diff "+notes+": edited by baton") || !strings.Contains(got, "[Explore] read the notes - done") {
		t.Errorf("replayed tool calls: %q", got)
	}
	for _, u := range load {
		if u.SessionID != f.NewSession.SessionID {
			t.Errorf("a replayed update for session %q", u.SessionID)
		}
	}
	if got := joined(f.Segments["afterLoad"], "agent_message_chunk"); got != "Hello from baton, streamed in pieces." {
		t.Errorf("the loaded session answered %q", got)
	}
	for i, e := range f.Exits {
		if e.Code == nil || *e.Code != exitOK {
			t.Errorf("baton's connection %d ended with %+v", i+1, e)
		}
	}
}

// slicesContain reports whether list holds s.
func slicesContain(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
