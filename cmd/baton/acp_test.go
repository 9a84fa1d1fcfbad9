package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/acp/acptest"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/mcp/mcptest"
)

// terminals is an editor's terminals, for a test client: each runs its
// command as a child process of the test.
type terminals struct {
	mu   sync.Mutex
	cmds map[string]*exec.Cmd
	outs map[string]*strings.Builder
	// ran are the command lines the editor ran, in order.
	ran []string
}

// handle answers the terminal/* requests.
func (ts *terminals) handle(method string, params json.RawMessage) (any, error) {
	var p struct {
		Command    string   `json:"command"`
		Args       []string `json:"args"`
		Cwd        string   `json:"cwd"`
		TerminalID string   `json:"terminalId"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, err
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	switch method {
	case "terminal/create":
		cmd := exec.Command(p.Command, p.Args...)
		cmd.Dir = p.Cwd
		out := &strings.Builder{}
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Start(); err != nil {
			return nil, err
		}
		id := fmt.Sprintf("t%d", len(ts.cmds)+1)
		ts.cmds[id], ts.outs[id] = cmd, out
		ts.ran = append(ts.ran, strings.Join(append([]string{p.Command}, p.Args...), " "))
		return map[string]string{"terminalId": id}, nil
	case "terminal/wait_for_exit":
		cmd := ts.cmds[p.TerminalID]
		ts.mu.Unlock()
		_ = cmd.Wait()
		ts.mu.Lock()
		return map[string]any{"exitCode": cmd.ProcessState.ExitCode()}, nil
	case "terminal/output":
		return map[string]any{"output": ts.outs[p.TerminalID].String(), "truncated": false,
			"exitStatus": map[string]any{"exitCode": ts.cmds[p.TerminalID].ProcessState.ExitCode()}}, nil
	case "terminal/release", "terminal/kill":
		return nil, nil
	}
	return nil, fmt.Errorf("no %s here", method)
}

// TestBatonACPProcessEndToEnd runs baton acp as a real process and drives
// it over its stdio: an MCP server the editor hands over (its name made
// usable), a command run in the editor's terminal through baton's
// sandbox stage, both asked about first; then the editor closes stdin
// and baton exits cleanly, leaving the session recorded.
func TestBatonACPProcessEndToEnd(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, func(req *llmtest.Request, w *llmtest.Writer) {
		var results []string
		for _, m := range req.Body.Messages {
			if m.Role == "tool" {
				results = append(results, m.Content)
			}
		}
		switch len(results) {
		case 0:
			w.ToolCalls(llmtest.Call{ID: "m1", Name: "mcp__editor-tools__echo", Args: `{"text":"ping"}`})
		case 1:
			w.ToolCalls(llmtest.Call{ID: "r1", Name: "run_command", Args: `{"command":"echo from-the-terminal"}`})
		default:
			w.Text("got " + strings.Join(results, " and "))
		}
	})
	ws, home := t.TempDir(), t.TempDir()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ts := &terminals{cmds: map[string]*exec.Cmd{}, outs: map[string]*strings.Builder{}}
	var asked []string
	var askedMu sync.Mutex
	p := startACPProcess(t, ws, home, srv.URL, map[string]any{"terminal": true}, func(method string, params json.RawMessage) (any, error) {
		if method == "session/request_permission" {
			var p struct {
				ToolCall struct{ Title string } `json:"toolCall"`
			}
			_ = json.Unmarshal(params, &p)
			askedMu.Lock()
			asked = append(asked, p.ToolCall.Title)
			askedMu.Unlock()
			return map[string]any{"outcome": map[string]any{"outcome": "selected", "optionId": "allow_once"}}, nil
		}
		return ts.handle(method, params)
	})
	client, cmd, stdin, stderr := p.client, p.cmd, p.stdin, p.stderr
	var session struct {
		SessionID string `json:"sessionId"`
	}
	servers := []any{map[string]any{"name": "editor tools", "command": self, "args": []string{"-test.run=^$"},
		"env": []any{map[string]string{"name": mcptest.ModeEnv, "value": mcptest.ModeServe}}}}
	if err := client.Call("session/new", map[string]any{"cwd": ws, "mcpServers": servers}, &session); err != nil {
		t.Fatalf("session/new: %v\nstderr: %s", err, stderr.String())
	}
	var stop struct {
		StopReason string `json:"stopReason"`
	}
	if err := client.Call("session/prompt", map[string]any{"sessionId": session.SessionID,
		"prompt": []any{map[string]any{"type": "text", "text": "ping and run"}}}, &stop); err != nil || stop.StopReason != "end_turn" {
		t.Fatalf("prompt: %+v, %v\nstderr: %s", stop, err, stderr.String())
	}
	var answer strings.Builder
	for _, u := range client.Updates() {
		if u.Kind == "agent_message_chunk" {
			var c struct {
				Content struct{ Text string } `json:"content"`
			}
			_ = u.Field(&c)
			answer.WriteString(c.Content.Text)
		}
	}
	if got := answer.String(); !strings.Contains(got, "echo: ping") || !strings.Contains(got, "from-the-terminal") {
		t.Errorf("answer = %q", got)
	}
	askedMu.Lock()
	if strings.Join(asked, " | ") != `mcp__editor-tools__echo {"text":"ping"} | run_command echo from-the-terminal` {
		t.Errorf("permission requests: %q", asked)
	}
	askedMu.Unlock()
	ts.mu.Lock()
	if len(ts.ran) != 1 || !strings.HasPrefix(ts.ran[0], self+" __baton_sandbox_terminal OPENAI_API_KEY ") {
		t.Errorf("the editor's terminal ran %q; want baton's sandbox stage", ts.ran)
	}
	ts.mu.Unlock()

	_ = stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("baton acp after stdin closed: %v\nstderr: %s", err, stderr.String())
	}
	<-client.Done()
	listed := runAt(t, ws, home, nil, "sessions")
	if !strings.Contains(listed.stdout, session.SessionID) || !strings.Contains(listed.stdout, "ping and run") {
		t.Errorf("baton sessions after the editor's session:\n%s", listed.stdout)
	}
}

func TestBatonACPFlagsAndSetup(t *testing.T) {
	t.Parallel()
	ws, home := t.TempDir(), t.TempDir()
	for _, c := range []struct {
		args []string
		env  []string
		code int
		says string
	}{
		{[]string{"acp", "-p", "hi"}, nil, exitUsage, "baton acp takes no -p"},
		{[]string{"acp", "--continue"}, nil, exitUsage, "baton acp takes no -p, --continue"},
		{[]string{"acp"}, []string{"OPENAI_API_KEY=", "OPENAI_BASE_URL="}, exitUsage, "no model endpoint configured"},
	} {
		r := runAt(t, ws, home, c.env, c.args...)
		if r.code != c.code || !strings.Contains(r.stderr, c.says) {
			t.Errorf("baton %s: exit %d, stderr %q; want %d and %q", strings.Join(c.args, " "), r.code, r.stderr, c.code, c.says)
		}
	}
	if r := runAt(t, ws, home, nil, "--help"); !strings.Contains(r.stdout, "baton acp [flags]") {
		t.Errorf("--help does not name baton acp:\n%s", r.stdout)
	}
}

// TestBatonACPRefusesTheHomeFolderUntrusted serves one session in the
// home folder: read-only tools there reach credentials without asking,
// so it is refused unless trusted, and the connection lives on.
func TestBatonACPRefusesTheHomeFolderUntrusted(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, func(req *llmtest.Request, w *llmtest.Writer) { w.Text("ok") })
	ws, home := t.TempDir(), t.TempDir()
	client, finish := serveACP(t, ws, home, srv.URL, func(string, json.RawMessage) (any, error) { return nil, nil })
	err := client.Call("session/new", map[string]any{"cwd": home, "mcpServers": []any{}}, nil)
	if err == nil || !strings.Contains(err.Error(), "home folder") {
		t.Errorf("session/new in the home folder: %v", err)
	}
	var ok struct{ SessionID string }
	if err := client.Call("session/new", map[string]any{"cwd": ws, "mcpServers": []any{}}, &ok); err != nil || ok.SessionID == "" {
		t.Errorf("session/new in a project after the refusal: %+v, %v", ok, err)
	}
	if code := finish(); code != exitOK {
		t.Errorf("exit %d", code)
	}
}

// TestBatonACPEndsOnSIGTERM stops baton acp with a signal while a turn
// streams and the editor keeps its pipes open: the prompt is answered
// cancelled, and baton exits with 130 without waiting for the editor.
func TestBatonACPEndsOnSIGTERM(t *testing.T) {
	srv := llmtest.NewServer(t, func(req *llmtest.Request, w *llmtest.Writer) {
		w.Chunk(`{"choices":[{"index":0,"delta":{"content":"working"}}]}`)
		<-w.Context().Done()
	})
	ws, home := t.TempDir(), t.TempDir()
	p := startACPProcess(t, ws, home, srv.URL, nil, func(string, json.RawMessage) (any, error) { return nil, nil })
	client, cmd := p.client, p.cmd
	defer p.stdin.Close()
	var session struct{ SessionID string }
	if err := client.Call("session/new", map[string]any{"cwd": ws, "mcpServers": []any{}}, &session); err != nil {
		t.Fatal(err)
	}
	stopped := make(chan string, 1)
	go func() {
		var stop struct{ StopReason string }
		_ = client.Call("session/prompt", map[string]any{"sessionId": session.SessionID, "prompt": []any{map[string]any{"type": "text", "text": "go"}}}, &stop)
		stopped <- stop.StopReason
	}()
	client.WaitUpdate(0, func(u acptest.Update) bool { return u.Kind == "agent_message_chunk" })
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if got := <-stopped; got != "cancelled" {
		t.Errorf("the prompt under SIGTERM stopped with %q", got)
	}
	err := cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != exitInterrupted {
		t.Errorf("baton acp after SIGTERM: %v; want exit %d", err, exitInterrupted)
	}
	<-client.Done()
}

// TestBatonACPAsksBeforeAnUntrustedProjectsMCPServer opens a session in
// a folder whose .mcp.json names a server: untrusted, it starts only once
// the person allowed it in the editor, asked after the editor has the
// session, as a call of its own showing the command line.
func TestBatonACPAsksBeforeAnUntrustedProjectsMCPServer(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, func(req *llmtest.Request, w *llmtest.Writer) { w.Text("ok") })
	ws, home := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(ws, ".mcp.json"), mcpJSON(t, map[string]string{"proj": mcptest.ModeServe}))
	asked := make(chan json.RawMessage, 1)
	client, finish := serveACP(t, ws, home, srv.URL, func(method string, params json.RawMessage) (any, error) {
		if method != "session/request_permission" {
			return nil, fmt.Errorf("no %s here", method)
		}
		asked <- params
		return map[string]any{"outcome": map[string]any{"outcome": "selected", "optionId": "allow_once"}}, nil
	})
	var session struct{ SessionID string }
	if err := client.Call("session/new", map[string]any{"cwd": ws, "mcpServers": []any{}}, &session); err != nil {
		t.Fatal(err)
	}
	var req struct {
		SessionID string
		ToolCall  struct {
			ToolCallID, Title string
			Content           []struct {
				Content struct{ Text string }
			}
		}
	}
	_ = json.Unmarshal(<-asked, &req)
	arrivals := client.Arrivals()
	if slices.Index(arrivals, "session/request_permission") < slices.Index(arrivals, "response 2") {
		t.Errorf("messages in the order %q; the card must come after the answer to session/new (response 2)", arrivals)
	}
	if req.SessionID != session.SessionID || req.ToolCall.Title != "MCP server proj" ||
		len(req.ToolCall.Content) == 0 || !strings.Contains(req.ToolCall.Content[0].Content.Text, "folder you have not trusted") {
		t.Errorf("the server's card: %+v", req)
	}
	client.WaitUpdate(0, func(u acptest.Update) bool {
		var c struct{ ToolCallID, Status string }
		_ = u.Field(&c)
		return u.Kind == "tool_call_update" && c.ToolCallID == req.ToolCall.ToolCallID && c.Status == "completed"
	})
	if code := finish(); code != exitOK {
		t.Errorf("exit %d", code)
	}
}

// acpProcess is baton acp running as a process of its own, initialized.
type acpProcess struct {
	client *acptest.Client
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stderr *strings.Builder
}

// startACPProcess starts this binary as baton acp in ws, against the
// endpoint at url, and initializes it with the client capabilities caps
// (nil: none); handler answers baton's requests.
func startACPProcess(t *testing.T, ws, home, url string, caps map[string]any, handler acptest.Handler) acpProcess {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, "-test.run=^$")
	cmd.Dir = ws
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_STATE_HOME=", "XDG_CONFIG_HOME=", "OPENAI_BASE_URL="+url, childArgsEnv+"=acp")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := &strings.Builder{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	client := acptest.NewClient(t, stdout, stdin, handler)
	init := map[string]any{"protocolVersion": 1}
	if caps != nil {
		init["clientCapabilities"] = caps
	}
	if err := client.Call("initialize", init, nil); err != nil {
		t.Fatal(err)
	}
	return acpProcess{client: client, cmd: cmd, stdin: stdin, stderr: stderr}
}

// serveACP runs baton acp in this process, in ws, against the endpoint
// at url, and initializes it; finish closes the client's side and
// returns baton's exit code once the client has read everything.
func serveACP(t *testing.T, ws, home, url string, handler acptest.Handler) (client *acptest.Client, finish func() int) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- run(context.Background(), ws, []string{"acp"}, []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "OPENAI_BASE_URL=" + url},
			inR, outW, &strings.Builder{}, nil)
		_ = outW.Close()
	}()
	client = acptest.NewClient(t, outR, inW, handler)
	if err := client.Call("initialize", map[string]any{"protocolVersion": 1}, nil); err != nil {
		t.Fatal(err)
	}
	return client, func() int {
		_ = inW.Close()
		code := <-done
		<-client.Done()
		return code
	}
}

// An editor lists baton's sessions over ACP: those of one folder, or all
// of them; a session asked for in a folder that is not one (a file, a
// path that is gone) is refused with why, and the connection lives on.
func TestBatonACPListsSessionsAndRefusesBadFolders(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, func(req *llmtest.Request, w *llmtest.Writer) { w.Text("ok") })
	ws, home := t.TempDir(), t.TempDir()
	client, finish := serveACP(t, ws, home, srv.URL, func(string, json.RawMessage) (any, error) { return nil, nil })
	var session struct{ SessionID string }
	if err := client.Call("session/new", map[string]any{"cwd": ws, "mcpServers": []any{}}, &session); err != nil {
		t.Fatal(err)
	}
	var stop struct{ StopReason string }
	if err := client.Call("session/prompt", map[string]any{"sessionId": session.SessionID,
		"prompt": []any{map[string]any{"type": "text", "text": "read the notes"}}}, &stop); err != nil || stop.StopReason != "end_turn" {
		t.Fatalf("prompt: %+v, %v", stop, err)
	}
	type listed struct {
		Sessions []struct{ SessionID, Cwd, Title string } `json:"sessions"`
	}
	for _, params := range []map[string]any{{"cwd": ws}, {}} {
		var list listed
		if err := client.Call("session/list", params, &list); err != nil {
			t.Fatalf("session/list %v: %v", params, err)
		}
		if len(list.Sessions) != 1 || list.Sessions[0].SessionID != session.SessionID || list.Sessions[0].Cwd != ws || list.Sessions[0].Title != "read the notes" {
			t.Errorf("session/list %v: %+v", params, list.Sessions)
		}
	}
	var other listed
	if err := client.Call("session/list", map[string]any{"cwd": t.TempDir()}, &other); err != nil || len(other.Sessions) != 0 {
		t.Errorf("session/list of a folder without sessions: %+v, %v", other.Sessions, err)
	}
	file := filepath.Join(ws, "notes.txt")
	writeFile(t, file, "hello\n")
	for cwd, want := range map[string]string{file: "is not a folder", filepath.Join(ws, "gone"): "workspace: "} {
		err := client.Call("session/new", map[string]any{"cwd": cwd, "mcpServers": []any{}}, nil)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("session/new in %s: %v, want it refused saying %q", cwd, err, want)
		}
	}
	if err := client.Call("session/new", map[string]any{"cwd": ws, "mcpServers": []any{}}, &session); err != nil {
		t.Errorf("session/new after the refusals: %v", err)
	}
	if code := finish(); code != exitOK {
		t.Errorf("exit %d", code)
	}
}
