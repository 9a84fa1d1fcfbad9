package main

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/mcp"
	"github.com/seed-e4e525a6/baton/engine/mcp/mcptest"
	"github.com/seed-e4e525a6/baton/engine/trust"
)

// mcpJSON is Claude Code's JSON form naming stdio servers that re-execute
// this test binary, one per name → mode.
func mcpJSON(t *testing.T, modes map[string]string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	servers := map[string]any{}
	for name, mode := range modes {
		servers[name] = map[string]any{"command": exe, "args": []string{"-test.run=^$"}, "env": map[string]string{mcptest.ModeEnv: mode}}
	}
	data, err := json.Marshal(map[string]any{"mcpServers": servers})
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// echoOnce scripts a model that calls mcp__srv__echo, then repeats what it
// got back.
func echoOnce(req *llmtest.Request, w *llmtest.Writer) {
	if req.Index == 0 {
		w.ToolCalls(llmtest.Call{Name: "mcp__srv__echo", Args: `{"text":"ping"}`})
		return
	}
	msgs := req.Body.Messages
	w.Text("the server said: " + msgs[len(msgs)-1].Content)
}

func TestHeadlessRunCallsAnMCPServerFromMCPConfig(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, echoOnce)
	file := filepath.Join(t.TempDir(), "servers.json")
	writeFile(t, file, mcpJSON(t, map[string]string{"srv": mcptest.ModeServe, "stuck": mcptest.ModeHang}))
	home := t.TempDir()
	writeFile(t, filepath.Join(home, ".config", "baton", "config.toml"), "[mcp]\nstartup_timeout_s = 1\n")
	r := runIn(t, context.Background(), []string{"OPENAI_BASE_URL=" + srv.URL, "HOME=" + home}, "",
		"-p", "ping the server", "--mcp-config", file, "--allow", "mcp__srv__echo")
	if r.code != exitOK {
		t.Fatalf("exit %d\nstderr: %s", r.code, r.stderr)
	}
	if r.stdout != "the server said: echo: ping\n" {
		t.Errorf("stdout = %q", r.stdout)
	}
	if !strings.Contains(r.stderr, "baton: MCP server stuck failed: connect: no answer within the startup timeout; its tools are left out") {
		t.Errorf("stderr does not name the hanging server:\n%s", r.stderr)
	}
	for _, name := range srv.Requests()[0].ToolNames() {
		if strings.HasPrefix(name, "mcp__stuck__") {
			t.Errorf("the hanging server's tool %s was offered", name)
		}
	}
}

func TestHeadlessRunWithoutAllowRefusesTheMCPCall(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, echoOnce)
	r := runIn(t, context.Background(), []string{"OPENAI_BASE_URL=" + srv.URL}, "",
		"-p", "ping", "--mcp-config", mcpJSON(t, map[string]string{"srv": mcptest.ModeServe}))
	if r.code != exitOK || !strings.Contains(r.stdout, "re-run with --allow mcp__srv__echo") {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
}

func TestUntrustedProjectMCPJSONIsNamedAndNotStarted(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, func(req *llmtest.Request, w *llmtest.Writer) { w.Text("ok") })
	ws := t.TempDir()
	writeFile(t, filepath.Join(ws, ".mcp.json"), mcpJSON(t, map[string]string{"srv": mcptest.ModeServe}))
	r := runAt(t, ws, t.TempDir(), []string{"OPENAI_BASE_URL=" + srv.URL}, "-p", "hi")
	if r.code != exitOK {
		t.Fatalf("exit %d\nstderr: %s", r.code, r.stderr)
	}
	want := "baton: note: .mcp.json: MCP servers srv not started: this folder is not trusted (run `baton trust` in it to start them)"
	if !strings.Contains(r.stderr, want) {
		t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
	}
	for _, name := range srv.Requests()[0].ToolNames() {
		if strings.HasPrefix(name, "mcp__") {
			t.Errorf("untrusted server's tool %s was offered", name)
		}
	}
}

func TestHeadlessRunsAnMCPPromptCommand(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, func(req *llmtest.Request, w *llmtest.Writer) { w.Text("Bonjour, Paris!") })
	servers := mcpJSON(t, map[string]string{"srv": mcptest.ModeServe})
	r := runIn(t, context.Background(), []string{"OPENAI_BASE_URL=" + srv.URL}, "", "-p", `/mcp__srv__greet Paris "very warm"`, "--mcp-config", servers)
	if r.code != exitOK || r.stdout != "Bonjour, Paris!\n" {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	if got := srv.Requests()[0].LastUser(); got != "Write a very warm greeting for Paris." {
		t.Fatalf("the model got %q", got)
	}
	r = runIn(t, context.Background(), []string{"OPENAI_BASE_URL=" + srv.URL}, "", "-p", "/mcp__srv__greet", "--mcp-config", servers)
	if r.code != exitFailed || !strings.Contains(r.stderr, "error: /mcp__srv__greet needs city; usage: /mcp__srv__greet CITY [STYLE]") || len(srv.Requests()) != 1 {
		t.Fatalf("without its argument: exit %d, %d requests\nstderr: %s", r.code, len(srv.Requests()), r.stderr)
	}
}

func TestHeadlessAttachesAMentionedResource(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, func(req *llmtest.Request, w *llmtest.Writer) { w.Text("read it") })
	prompt := "what does @srv:" + mcptest.NoteURI + " say?"
	r := runIn(t, context.Background(), []string{"OPENAI_BASE_URL=" + srv.URL}, "", "-p", prompt,
		"--mcp-config", mcpJSON(t, map[string]string{"srv": mcptest.ModeServe}))
	if r.code != exitOK || !strings.Contains(r.stderr, "note: attached @srv:"+mcptest.NoteURI+" (1 line)") {
		t.Fatalf("exit %d\nstderr: %s", r.code, r.stderr)
	}
	want := prompt + "\n\n<mcp-resource server=\"srv\" uri=\"" + mcptest.NoteURI + "\">\n" + mcptest.NoteText + "\n</mcp-resource>"
	if got := srv.Requests()[0].LastUser(); got != want {
		t.Fatalf("the model got %q, want %q", got, want)
	}
}

func TestHeadlessNamesWhatItCutOfAServer(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, func(req *llmtest.Request, w *llmtest.Writer) { w.Text("ok") })
	r := runIn(t, context.Background(), []string{"OPENAI_BASE_URL=" + srv.URL}, "", "-p", "hi",
		"--mcp-config", mcpJSON(t, map[string]string{"bad": mcptest.ModeHostile}))
	if r.code != exitOK || !strings.Contains(r.stderr, "note: MCP server bad: the description of mcp__bad__long has 20000 characters; the model gets the first 16000") {
		t.Fatalf("exit %d\nstderr: %s", r.code, r.stderr)
	}
	// The hostile instructions reach the model clean, and nothing of them
	// reaches the terminal.
	system := srv.Requests()[0].System()
	if !strings.Contains(system, "## MCP server bad\n\nObey the link and ring obey") || strings.ContainsAny(system, "\x1b\x07") || strings.Contains(r.stderr, "\x1b") {
		t.Fatalf("system prompt %q…\nstderr: %q", system[max(0, strings.Index(system, "# Instructions")):][:200], r.stderr)
	}
}

// TestHeadlessRunSurvivesAnMCPCallNeverAnswered is the hang: the server
// never answers tools/call. With call_timeout_s = 1 the model gets a tool
// error naming the server and the key, and the run ends.
func TestHeadlessRunSurvivesAnMCPCallNeverAnswered(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, func(req *llmtest.Request, w *llmtest.Writer) {
		if req.Index == 0 {
			w.ToolCalls(llmtest.Call{Name: "mcp__srv__hang", Args: `{}`})
			return
		}
		msgs := req.Body.Messages
		w.Text("tool said: " + msgs[len(msgs)-1].Content)
	})
	home := t.TempDir()
	writeFile(t, filepath.Join(home, ".config", "baton", "config.toml"), "[mcp]\ncall_timeout_s = 1\n")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r := runIn(t, ctx, []string{"OPENAI_BASE_URL=" + srv.URL, "HOME=" + home}, "",
		"-p", "call it", "--mcp-config", mcpJSON(t, map[string]string{"srv": mcptest.ModeServe}), "--allow", "mcp__srv__hang")
	if r.code != exitOK {
		t.Fatalf("exit %d\nstderr: %s", r.code, r.stderr)
	}
	if !strings.Contains(r.stdout, "MCP server srv did not answer hang within 1 s (call_timeout_s)") {
		t.Errorf("the model was not told the call timed out: %q", r.stdout)
	}
}

// An untrusted project's server asks on a card that offers to trust the
// folder; t records it in the trust list as `baton trust` does (so the
// next start asks nothing), says so, and the server starts.
func TestMCPServerCardTrustsTheFolder(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, func(req *llmtest.Request, w *llmtest.Writer) { w.Text("ok") })
	ws, home := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(ws, ".mcp.json"), mcpJSON(t, map[string]string{"srv": mcptest.ModeServe}))
	environ := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "OPENAI_BASE_URL=" + srv.URL}
	inv, code := prepare(ws, parseCommandLine(nil), environ, strings.NewReader(""), io.Discard, io.Discard)
	if inv == nil || inv.trust.Trusted {
		t.Fatalf("prepare: exit %d, trusted %v", code, inv != nil && inv.trust.Trusted)
	}
	setup := newSessionSetup(inv.cfg, inv.endpoint, inv.types, inv.workspace, inv.env, false)
	servers := newMCPRun(inv)
	t.Cleanup(servers.close)
	setup.engine.MCP = servers.source()
	s, err := engine.NewSession(context.Background(), setup.engine)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	servers.start(context.Background(), s)
	var notice string
	for ev := range s.Events() {
		switch e := ev.(type) {
		case event.ApprovalRequested:
			if e.Request.Kind != event.ApproveMCPServer || !e.Request.Server.CanTrust || !strings.Contains(e.Request.Server.Command, "-test.run=^$") {
				t.Fatalf("card %+v", e.Request)
			}
			e.Request.Answer(event.Answer{Decision: event.AllowAlways})
		case event.Notice:
			notice = e.Text
		}
		if notice != "" {
			break
		}
	}
	if !strings.Contains(notice, "trusted: "+inv.trust.Path) || !strings.Contains(notice, "its MCP servers start without asking") {
		t.Errorf("notice %q", notice)
	}
	if again := trust.Lookup(ws, inv.env, false); !again.Trusted {
		t.Error("the folder is not on the trust list: the card would return on the next start")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := servers.m.Wait(ctx, mcp.AllSettled); err != nil || servers.m.Statuses()[0].State != event.MCPConnected {
		t.Errorf("the server did not start: %v %+v", err, servers.m.Statuses())
	}
}

func TestStreamJSONInitListsMCPPrompts(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, func(req *llmtest.Request, w *llmtest.Writer) { w.Text("ok") })
	r := runIn(t, context.Background(), []string{"OPENAI_BASE_URL=" + srv.URL}, "", "-p", "hi", "--output-format", "stream-json", "--verbose",
		"--mcp-config", mcpJSON(t, map[string]string{"srv": mcptest.ModeServe}))
	if r.code != exitOK {
		t.Fatalf("exit %d\nstderr: %s", r.code, r.stderr)
	}
	var init struct {
		Subtype       string   `json:"subtype"`
		SlashCommands []string `json:"slash_commands"`
	}
	if err := json.Unmarshal([]byte(strings.SplitN(r.stdout, "\n", 2)[0]), &init); err != nil || init.Subtype != "init" ||
		!slices.Contains(init.SlashCommands, "mcp__srv__greet") || !slices.Contains(init.SlashCommands, "mcp__srv__show_dot") {
		t.Fatalf("init %+v, %v\nstdout: %s", init, err, r.stdout)
	}
}
