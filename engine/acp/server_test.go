package acp

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/acp/acptest"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/permission"
)

// serveClient serves opts on a pipe and returns the test's client; the
// connection ends with the test.
func serveClient(t *testing.T, opts Options) *acptest.Client {
	t.Helper()
	fromServer, serverOut := io.Pipe()
	serverIn, toServer := io.Pipe()
	served := make(chan error, 1)
	go func() {
		served <- Serve(context.Background(), serverIn, serverOut, opts)
		serverOut.Close()
	}()
	client := acptest.NewClient(t, fromServer, toServer, func(string, json.RawMessage) (any, error) {
		return nil, errors.New("this client answers nothing")
	})
	t.Cleanup(func() {
		toServer.Close()
		if err := <-served; err != nil {
			t.Errorf("Serve: %v", err)
		}
		<-client.Done()
	})
	return client
}

// A client's MCP servers come in under names baton's tool names take
// (mcp__NAME__tool: a "__" inside a name would let one server's tool pass
// for another's); one baton cannot use, or a second under a name already
// taken, is left out and the person is told why once the session is
// theirs.
func TestEditorsMCPServersGetSafeNamesAndUnusableOnesANotice(t *testing.T) {
	r := newRig(t, func(req *llmtest.Request, w *llmtest.Writer) { w.Text("unused") })
	r.initialize()
	servers := []any{
		map[string]any{"name": "my files", "command": "/usr/bin/files-server", "args": []string{"--root", "/"}, "env": []any{map[string]any{"name": "TOKEN", "value": "t0k"}}},
		map[string]any{"type": "http", "name": "docs__read_file", "url": "https://docs.example/mcp", "headers": []any{map[string]any{"name": "Authorization", "value": "Bearer x"}}},
		map[string]any{"type": "sse", "name": "my.files", "url": "https://other.example/sse"},
		map[string]any{"type": "http", "name": "ftp", "url": "ftp://files.example/"},
		map[string]any{"name": "nothing"},
	}
	var resp struct {
		SessionID string `json:"sessionId"`
	}
	if err := r.client.Call("session/new", map[string]any{"cwd": r.ws, "mcpServers": servers}, &resp); err != nil {
		t.Fatal(err)
	}
	r.mu.Lock()
	got := r.opens[0].MCPServers
	r.mu.Unlock()
	if len(got) != 2 {
		t.Fatalf("the session got %d servers, want 2: %+v", len(got), got)
	}
	if s := got[0]; s.Name != "my-files" || s.Command != "/usr/bin/files-server" || strings.Join(s.Args, " ") != "--root /" || s.Env["TOKEN"] != "t0k" || s.Source != "the editor" {
		t.Errorf("the stdio server came in as %+v", s)
	}
	if s := got[1]; s.Name != "docs_-read_file" || s.URL != "https://docs.example/mcp" || s.Headers["Authorization"] != "Bearer x" || s.SSE {
		t.Errorf("the http server came in as %+v", s)
	}
	var notices []string
	for i := 0; len(notices) < 3; i++ {
		u, at := r.client.WaitUpdate(i, func(u acptest.Update) bool { return u.Kind == "notice" })
		var n noticeUpdate
		_ = u.Field(&n)
		if n.Severity != "warning" || u.SessionID != resp.SessionID {
			t.Errorf("notice %+v for session %q", n, u.SessionID)
		}
		notices, i = append(notices, n.Title), at
	}
	for i, want := range []string{`"my.files" is left out: another has the name my-files`, `"ftp" is left out: url "ftp://files.example/"`, `"nothing" is left out: give a command`} {
		if !strings.Contains(notices[i], want) {
			t.Errorf("notice %d = %q, want it to say %s", i, notices[i], want)
		}
	}
}

func TestSessionRequestsTheServerRefusesSayWhy(t *testing.T) {
	r := newRig(t, func(req *llmtest.Request, w *llmtest.Writer) { w.Text("unused") })
	session := r.newSession()
	if err := r.client.Call("authenticate", map[string]any{"methodId": "anything"}, nil); err != nil {
		t.Errorf("authenticate: %v; nothing needs signing in, so it should succeed", err)
	}
	cases := []struct {
		method string
		params any
		want   string
	}{
		{"session/load", map[string]any{"sessionId": "", "cwd": r.ws}, "sessionId is empty (-32602)"},
		{"session/load", map[string]any{"sessionId": session, "cwd": r.ws}, "already open on this connection (-32602)"},
		{"session/load", map[string]any{"sessionId": 7}, "(-32602)"},
		{"session/close", map[string]any{"sessionId": "no-such"}, "no session no-such (-32002)"},
		{"session/close", nil, "no session  (-32002)"},
		{"session/close", []any{"not", "an", "object"}, "(-32602)"},
		{"session/list", map[string]any{"cwd": 3}, "(-32602)"},
		{"initialize", "a string", "(-32602)"},
		{"session/prompt", map[string]any{"sessionId": session, "prompt": "not blocks"}, "(-32602)"},
		{"session/set_mode", map[string]any{"sessionId": session, "modeId": 1}, "(-32602)"},
		{"session/set_config_option", map[string]any{"sessionId": session, "configId": "mode", "value": 1}, "takes a value id (a string) (-32602)"},
		{"session/set_config_option", map[string]any{"sessionId": session, "configId": "mode", "value": "yolo"}, "(-32602)"},
		{"session/set_config_option", map[string]any{"sessionId": session, "configId": "theme", "value": "dark"}, `no config option "theme" (baton has mode and model) (-32602)`},
		{"session/set_config_option", map[string]any{"sessionId": session, "configId": []int{1}}, "(-32602)"},
		{"session/set_mode", []int{1}, "(-32602)"},
	}
	for _, c := range cases {
		err := r.client.Call(c.method, c.params, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %v: err = %v, want %q", c.method, c.params, err, c.want)
		}
	}
	// Notifications the server cannot read are dropped, and the
	// connection lives on.
	r.client.Notify("session/cancel", "not an object")
	r.client.Notify("session/cancel", map[string]any{"sessionId": "no-such"})
	r.client.Notify("session/forget", map[string]any{"sessionId": session})
	r.mustPrompt(session, "still there?")
}

func TestListShowsSessionsWithAFolderAndSaysWhenItCannot(t *testing.T) {
	active := time.Date(2026, 3, 1, 10, 30, 0, 0, time.FixedZone("CET", 3600))
	listed := []Listed{
		{ID: "here", Title: "the folder's own", LastActive: active},
		{ID: "broken", Workspace: "relative/path", Title: "a record with a relative folder"},
		{ID: "there", Workspace: "/elsewhere", Title: "another folder's"},
	}
	client := serveClient(t, Options{List: func(workspace string) ([]Listed, error) {
		if workspace == "/unreadable" {
			return nil, errors.New("the session store is unreadable")
		}
		return listed, nil
	}})
	var resp struct {
		Sessions []struct {
			SessionID, Cwd, Title, UpdatedAt string
		} `json:"sessions"`
	}
	if err := client.Call("session/list", map[string]any{"cwd": "/work/app"}, &resp); err != nil {
		t.Fatal(err)
	}
	if len(resp.Sessions) != 2 {
		t.Fatalf("sessions: %+v; want the two with an absolute folder", resp.Sessions)
	}
	if s := resp.Sessions[0]; s.SessionID != "here" || s.Cwd != "/work/app" || s.UpdatedAt != "2026-03-01T09:30:00Z" {
		t.Errorf("a session without its own folder: %+v", s)
	}
	if s := resp.Sessions[1]; s.SessionID != "there" || s.Cwd != "/elsewhere" || s.UpdatedAt != "" {
		t.Errorf("a session of another folder: %+v", s)
	}
	if err := client.Call("session/list", map[string]any{"cwd": "/unreadable"}, nil); err == nil || !strings.Contains(err.Error(), "the session store is unreadable") {
		t.Errorf("a failing list: err = %v", err)
	}
}

func TestWithoutAListThereIsNoSessionList(t *testing.T) {
	client := serveClient(t, Options{})
	var init struct {
		AgentCapabilities struct {
			SessionCapabilities map[string]any `json:"sessionCapabilities"`
		} `json:"agentCapabilities"`
	}
	if err := client.Call("initialize", map[string]any{"protocolVersion": 1}, &init); err != nil {
		t.Fatal(err)
	}
	if _, offered := init.AgentCapabilities.SessionCapabilities["list"]; offered {
		t.Error("initialize offers session/list without a list")
	}
	if err := client.Call("session/list", map[string]any{}, nil); err == nil || !strings.Contains(err.Error(), "-32601") {
		t.Errorf("session/list without a list: err = %v, want method not found", err)
	}
}

func TestSessionThatCannotOpenIsAnError(t *testing.T) {
	client := serveClient(t, Options{Open: func(context.Context, OpenRequest) (Opened, error) {
		return Opened{}, errors.New("the config of this folder does not parse")
	}})
	err := client.Call("session/new", map[string]any{"cwd": "/work/app", "mcpServers": []any{}}, nil)
	if err == nil || !strings.Contains(err.Error(), "the config of this folder does not parse") {
		t.Errorf("err = %v, want the reason", err)
	}
}

// A session baton does not record (no transcript) still gets an id the
// client can use on this connection, and with no known context window
// no usage update is made up.
func TestUnrecordedSessionHasAnIDForTheConnection(t *testing.T) {
	llm := llmtest.NewServer(t, func(req *llmtest.Request, w *llmtest.Writer) { w.Text("unrecorded answer") })
	ws := t.TempDir()
	client := serveClient(t, Options{Open: func(ctx context.Context, req OpenRequest) (Opened, error) {
		s, err := engine.NewSession(ctx, engine.Config{Client: llm.Client(), Model: "test-model", Workspace: req.Workspace, Mode: permission.Ask, RetryDelays: []time.Duration{}})
		if err != nil {
			return Opened{}, err
		}
		return Opened{Session: s, Close: s.Close}, nil
	}})
	if err := client.Call("initialize", map[string]any{"protocolVersion": 1}, nil); err != nil {
		t.Fatal(err)
	}
	var resp struct {
		SessionID string `json:"sessionId"`
	}
	if err := client.Call("session/new", map[string]any{"cwd": ws, "mcpServers": []any{}}, &resp); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(resp.SessionID, "unrecorded-") || len(resp.SessionID) != len("unrecorded-")+12 {
		t.Fatalf("session id %q", resp.SessionID)
	}
	var stop struct {
		StopReason string `json:"stopReason"`
	}
	if err := client.Call("session/prompt", map[string]any{"sessionId": resp.SessionID, "prompt": []any{map[string]any{"type": "text", "text": "hi"}}}, &stop); err != nil || stop.StopReason != "end_turn" {
		t.Fatalf("prompt: %+v, %v", stop, err)
	}
	for _, u := range client.Updates() {
		if u.Kind == "usage_update" {
			t.Errorf("a usage update without a known context window: %s", u.Raw)
		}
	}
	if got := answerText(client.Updates(), "agent_message_chunk"); got != "unrecorded answer" {
		t.Errorf("answer = %q", got)
	}
}
