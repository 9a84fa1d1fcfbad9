package acp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/acp/acptest"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/permission"
	"github.com/seed-e4e525a6/baton/engine/sandbox"
	"github.com/seed-e4e525a6/baton/engine/transcript"
)

func TestMain(m *testing.M) {
	// This binary starts itself (sandbox stages, servers, baton): built
	// with -race, each such process would sleep a second as it exits.
	if _, set := os.LookupEnv("GORACE"); !set {
		os.Setenv("GORACE", "atexit_sleep_ms=0")
	}
	sandbox.Main() // the editor's terminal re-executes the test binary as the sandbox
	goleak.VerifyTestMain(m)
}

// rig is a baton ACP server on one end of a pipe and the test's client on
// the other, with a scripted endpoint behind the server and a store of
// transcripts, so sessions can be loaded again.
type rig struct {
	t      *testing.T
	llm    *llmtest.Server
	client *acptest.Client
	// root holds the workspace ws, the sandbox's temp folder and home,
	// and a folder outside all of them.
	root, ws string
	store    *transcript.Store
	// caps are the client capabilities initialize announces.
	caps map[string]any
	// disconnect ends the current connection and waits for the server.
	disconnect func()
	// permit picks the option for a permission request (nil: allow once).
	permit func(params json.RawMessage) string
	// limits and retries are the sessions' limits and retry delays (none).
	limits  engine.Limits
	retries []time.Duration
	// editor answers the server's requests in place of the rig's editor
	// when it returns handled (a broken or hostile client).
	editor func(method string, params json.RawMessage) (result any, err error, handled bool)

	mu sync.Mutex
	// buffers are the editor's files: what fs/read_text_file returns
	// before the disk, and where fs/write_text_file lands.
	buffers map[string]string
	// permissions are the permission requests received, in order.
	permissions []json.RawMessage
	// opens are the sessions the server asked Options.Open for.
	opens []OpenRequest
	// terminals are the commands the client ran, by terminal id.
	terminals map[string]*exec.Cmd
	outputs   map[string]*strings.Builder
}

// newRig starts the server and its client; both end with the test.
func newRig(t *testing.T, respond llmtest.Responder) *rig {
	t.Helper()
	root := t.TempDir()
	r := &rig{t: t, llm: llmtest.NewServer(t, respond), root: root, ws: filepath.Join(root, "ws"), store: transcript.NewStore(filepath.Join(root, "state"), nil),
		buffers: map[string]string{}, terminals: map[string]*exec.Cmd{}, outputs: map[string]*strings.Builder{}}
	for _, d := range []string{r.ws, filepath.Join(root, "tmp"), filepath.Join(root, "home"), filepath.Join(root, "outside")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	r.connect()
	return r
}

// connect starts a server on a new connection, as an editor starting
// baton again would.
func (r *rig) connect() {
	t := r.t
	fromServer, serverOut := io.Pipe()
	serverIn, toServer := io.Pipe()
	served := make(chan error, 1)
	go func() {
		served <- Serve(context.Background(), serverIn, serverOut, Options{Open: r.open, Version: "test", List: r.list})
		serverOut.Close()
	}()
	r.client = acptest.NewClient(t, fromServer, toServer, r.handle)
	client := r.client
	var once sync.Once
	r.disconnect = func() {
		once.Do(func() {
			toServer.Close()
			if err := <-served; err != nil {
				t.Errorf("Serve: %v", err)
			}
			<-client.Done()
		})
	}
	t.Cleanup(func() {
		r.disconnect()
		r.llm.Close()
	})
}

// reconnect ends the connection and starts baton on a new one, as an
// editor restarting it would.
func (r *rig) reconnect() {
	r.disconnect()
	r.connect()
}

// open is Options.Open: a session in the asked folder, recorded in the
// rig's store.
func (r *rig) open(ctx context.Context, req OpenRequest) (Opened, error) {
	r.mu.Lock()
	r.opens = append(r.opens, req)
	r.mu.Unlock()
	var dir *transcript.Dir
	var err error
	if req.SessionID == "" {
		dir, err = r.store.Create(req.Workspace, time.Now())
	} else {
		dir, err = r.store.Open(req.Workspace, req.SessionID)
	}
	if err != nil {
		return Opened{}, err
	}
	if err := dir.Lock(); err != nil {
		return Opened{}, err
	}
	box := sandbox.Settings{Env: map[string]string{"HOME": filepath.Join(r.root, "home"), "TMPDIR": filepath.Join(r.root, "tmp")}}.Policy(req.Workspace)
	s, err := engine.NewSession(ctx, engine.Config{Client: r.llm.Client(), Model: "test-model", Workspace: req.Workspace,
		Mode: permission.Ask, Transcript: dir, Editor: req.Editor, RetryDelays: append([]time.Duration{}, r.retries...), Sandbox: box, Limits: r.limits})
	if err != nil {
		_ = dir.Close()
		return Opened{}, err
	}
	return Opened{Session: s, ContextWindow: func(string) int64 { return 1000 }, Close: func() {
		s.Close()
		_ = dir.Close()
	}}, nil
}

// list is Options.List over the rig's store.
func (r *rig) list(workspace string) ([]Listed, error) {
	found, err := r.store.List(workspace)
	if err != nil {
		return nil, err
	}
	var out []Listed
	for _, s := range found {
		out = append(out, Listed{ID: s.ID, Workspace: s.Workspace, Title: s.Title, LastActive: s.LastActive})
	}
	return out, nil
}

// handle answers the server's requests as an editor would.
func (r *rig) handle(method string, params json.RawMessage) (any, error) {
	var p struct {
		Path       string   `json:"path"`
		Content    string   `json:"content"`
		Command    string   `json:"command"`
		Args       []string `json:"args"`
		Cwd        string   `json:"cwd"`
		TerminalID string   `json:"terminalId"`
	}
	_ = json.Unmarshal(params, &p)
	if r.editor != nil {
		if result, err, handled := r.editor(method, params); handled {
			return result, err
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	switch method {
	case "session/request_permission":
		r.permissions = append(r.permissions, params)
		option := "allow_once"
		if r.permit != nil {
			option = r.permit(params)
		}
		if option == "cancelled" {
			return map[string]any{"outcome": map[string]any{"outcome": "cancelled"}}, nil
		}
		return map[string]any{"outcome": map[string]any{"outcome": "selected", "optionId": option}}, nil
	case "fs/read_text_file":
		if text, ok := r.buffers[p.Path]; ok {
			return map[string]any{"content": text}, nil
		}
		data, err := os.ReadFile(p.Path)
		return map[string]any{"content": string(data)}, err
	case "fs/write_text_file":
		r.buffers[p.Path] = p.Content
		return nil, nil
	case "terminal/create":
		return r.createTerminal(p.Command, p.Args, p.Cwd)
	case "terminal/wait_for_exit":
		cmd := r.terminals[p.TerminalID]
		r.mu.Unlock()
		err := cmd.Wait()
		r.mu.Lock()
		if err != nil && cmd.ProcessState == nil {
			return nil, err
		}
		return map[string]any{"exitCode": cmd.ProcessState.ExitCode()}, nil
	case "terminal/output":
		cmd := r.terminals[p.TerminalID]
		out := map[string]any{"output": r.outputs[p.TerminalID].String(), "truncated": false}
		if cmd.ProcessState != nil {
			out["exitStatus"] = map[string]any{"exitCode": cmd.ProcessState.ExitCode()}
		}
		return out, nil
	case "terminal/kill", "terminal/release":
		if cmd := r.terminals[p.TerminalID]; cmd != nil && cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
		}
		return nil, nil
	}
	return nil, fmt.Errorf("the test client does not answer %s", method)
}

// createTerminal starts a command as an editor's terminal would; r.mu
// is held.
func (r *rig) createTerminal(command string, args []string, cwd string) (any, error) {
	cmd := exec.Command(command, args...)
	cmd.Dir = cwd
	out := &strings.Builder{}
	cmd.Stdout, cmd.Stderr = &lockedBuilder{mu: &r.mu, b: out}, &lockedBuilder{mu: &r.mu, b: out}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	id := fmt.Sprintf("term-%d", len(r.terminals)+1)
	r.terminals[id], r.outputs[id] = cmd, out
	return map[string]any{"terminalId": id}, nil
}

// lockedBuilder is a terminal's output, written by its command while the
// client reads it.
type lockedBuilder struct {
	mu *sync.Mutex
	b  *strings.Builder
}

func (l *lockedBuilder) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// initialize starts the connection, announcing caps.
func (r *rig) initialize() map[string]any {
	r.t.Helper()
	caps := r.caps
	if caps == nil {
		caps = map[string]any{}
	}
	var resp map[string]any
	if err := r.client.Call("initialize", map[string]any{"protocolVersion": 1, "clientCapabilities": caps}, &resp); err != nil {
		r.t.Fatal(err)
	}
	return resp
}

// newSession initializes and opens a session in the rig's workspace.
func (r *rig) newSession() string {
	r.t.Helper()
	r.initialize()
	var resp struct {
		SessionID string `json:"sessionId"`
	}
	if err := r.client.Call("session/new", map[string]any{"cwd": r.ws, "mcpServers": []any{}}, &resp); err != nil {
		r.t.Fatal(err)
	}
	if resp.SessionID == "" {
		r.t.Fatal("session/new gave no session id")
	}
	return resp.SessionID
}

// prompt sends a text prompt and returns the stop reason.
func (r *rig) prompt(session, text string) (string, error) {
	var resp struct {
		StopReason string `json:"stopReason"`
	}
	err := r.client.Call("session/prompt", map[string]any{"sessionId": session, "prompt": []any{map[string]any{"type": "text", "text": text}}}, &resp)
	return resp.StopReason, err
}

// mustPrompt is prompt for turns that must end normally.
func (r *rig) mustPrompt(session, text string) {
	r.t.Helper()
	stop, err := r.prompt(session, text)
	if err != nil {
		r.t.Fatal(err)
	}
	if stop != "end_turn" {
		r.t.Fatalf("stopReason = %q, want end_turn", stop)
	}
}

// answerText joins the agent_message_chunk texts from the from-th update.
func answerText(updates []acptest.Update, kind string) string {
	var b strings.Builder
	for _, u := range updates {
		if u.Kind != kind {
			continue
		}
		var c struct {
			Content struct {
				Text string `json:"text"`
			} `json:"content"`
		}
		_ = u.Field(&c)
		b.WriteString(c.Content.Text)
	}
	return b.String()
}

// toolUpdate is the fields of a tool_call or tool_call_update tests read.
type toolUpdate struct {
	ToolCallID string `json:"toolCallId"`
	Title      string `json:"title"`
	Kind       string `json:"kind"`
	Status     string `json:"status"`
	Content    []struct {
		Type    string `json:"type"`
		Path    string `json:"path"`
		OldText *string
		NewText string `json:"newText"`
		Content struct {
			Text string `json:"text"`
		} `json:"content"`
		TerminalID string `json:"terminalId"`
	} `json:"content"`
}

// toolUpdates decodes every tool update, in order.
func toolUpdates(updates []acptest.Update) []toolUpdate {
	var out []toolUpdate
	for _, u := range updates {
		if u.Kind == "tool_call" || u.Kind == "tool_call_update" {
			var tu toolUpdate
			_ = u.Field(&tu)
			out = append(out, tu)
		}
	}
	return out
}

// writeWorkspaceFile creates a file in the rig's workspace.
func (r *rig) writeWorkspaceFile(name, content string) string {
	r.t.Helper()
	p := filepath.Join(r.ws, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		r.t.Fatal(err)
	}
	return p
}
