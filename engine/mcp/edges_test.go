package mcp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// A definition baton cannot use is skipped with the reason, naming the
// field a wrong type is in; the rest still load.
func TestDefinitionsThatCannotWorkAreSkippedWithTheReason(t *testing.T) {
	servers, warnings, err := ParseClaude([]byte(`{"mcpServers": {
		"both": {"command": "x", "url": "https://y.example"},
		"neither": {"args": ["a"]},
		"ftp": {"url": "ftp://files.example"},
		"typed": {"command": 5},
		"ok": {"command": "run-it"}
	}}`), ".mcp.json", env(nil))
	if err != nil {
		t.Fatal(err)
	}
	// A stdio entry with a stray url runs its command, as Claude Code's does.
	if len(servers) != 2 || servers[0].Name != "both" || servers[0].Command != "x" || servers[0].URL != "" || servers[1].Name != "ok" {
		t.Errorf("servers %+v", servers)
	}
	if err := (Server{Name: "both", Command: "x", URL: "https://y.example"}).Check(); err == nil || err.Error() != "give either command or url, not both" {
		t.Errorf("a server with both: %v", err)
	}
	for _, want := range []string{
		".mcp.json: mcpServers.ftp: url \"ftp://files.example\": expected an http(s) URL; skipped",
		".mcp.json: mcpServers.neither: give a command (stdio server) or a url (HTTP server); skipped",
		".mcp.json: mcpServers.typed: command: expected string, got number; skipped",
	} {
		if !slices.Contains(warnings, want) {
			t.Errorf("warnings %q lack %q", warnings, want)
		}
	}

	servers, warnings, err = ParseOpenCode([]byte(`{"mcp": {
		// what OpenCode would refuse too
		"nocmd": {"type": "local"},
		"pigeon": {"type": "carrier"},
		"typed": {"type": "local", "command": "not-an-array"},
		"bad name!": {"type": "remote", "url": "https://x.example"},
		"off": {"type": "local", "command": ["x"], "enabled": false},
		"ok": {"type": "local", "command": ["run-it", "--flag"]},
	}}`), "opencode.jsonc", env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if len(servers) != 1 || servers[0].Command != "run-it" || servers[0].Args[0] != "--flag" {
		t.Errorf("servers %+v", servers)
	}
	for _, want := range []string{
		"opencode.jsonc: mcp.nocmd: a local server needs a command array; skipped",
		`opencode.jsonc: mcp.pigeon: type "carrier": expected local or remote; skipped`,
		"opencode.jsonc: mcp.typed: command: expected slice, got string; skipped",
		`opencode.jsonc: mcp.bad name!: server name "bad name!": use letters, digits, '-' and single '_'; skipped`,
	} {
		if !slices.Contains(warnings, want) {
			t.Errorf("warnings %q lack %q", warnings, want)
		}
	}
	if _, _, err := ParseOpenCode([]byte(`{"mcp": 5}`), "opencode.json", env(nil)); err == nil || !strings.Contains(err.Error(), "opencode.json: mcp: expected map") {
		t.Errorf("a file whose mcp is no object: %v", err)
	}
}

// ~/.claude.json can be large (it keeps Claude Code's history) but not
// without bound; a project's file is small. Both are sized before they
// are read, so a sparse file of gigabytes or a FIFO costs nothing; a
// broken user file is a warning, and the rest still load.
func TestServerFilesAreSizedBeforeTheyAreRead(t *testing.T) {
	home, ws := t.TempDir(), t.TempDir()
	sparse := func(path string, size int64) {
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := f.Truncate(size); err != nil {
			t.Fatal(err)
		}
	}
	sparse(filepath.Join(home, ".claude.json"), maxUserFile+1)
	sparse(filepath.Join(ws, ".mcp.json"), maxProjectFile+1)
	l := Discover(Sources{Workspace: ws, Home: home, Env: env(nil)})
	for _, want := range []string{"~/.claude.json: larger than 32768 KiB; its MCP servers are not loaded", ".mcp.json: larger than 1024 KiB; its MCP servers are not loaded"} {
		if !slices.Contains(l.Warnings, want) {
			t.Errorf("warnings %q lack %q", l.Warnings, want)
		}
	}

	if err := os.Remove(filepath.Join(home, ".claude.json")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(home, ".claude.json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if l := Discover(Sources{Home: home, Env: env(nil)}); len(l.Warnings) != 1 || l.Warnings[0] != "~/.claude.json: not a regular file; its MCP servers are not loaded" {
		t.Errorf("a FIFO for ~/.claude.json: %q", l.Warnings)
	}
	if err := os.Remove(filepath.Join(home, ".claude.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".claude.json"), []byte(`{"mcpServers": {"x": {"command": "ok"}}, "projects": 7}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if l := Discover(Sources{Home: home, Env: env(nil)}); len(l.Warnings) != 1 || !strings.HasPrefix(l.Warnings[0], "~/.claude.json: projects: expected map") || len(l.User) != 0 {
		t.Errorf("a broken ~/.claude.json: %q, %d servers", l.Warnings, len(l.User))
	}
	if err := os.Chmod(filepath.Join(home, ".claude.json"), 0); err != nil {
		t.Fatal(err)
	}
	if os.Getuid() != 0 {
		if l := Discover(Sources{Home: home, Env: env(nil)}); len(l.Warnings) != 1 || l.Warnings[0] != "~/.claude.json: open: permission denied; its MCP servers are not loaded" {
			t.Errorf("an unreadable ~/.claude.json: %q", l.Warnings)
		}
	}
}

// What the model gets for content it cannot read is a note of what it
// was, bounded: a server's MIME type cannot flood the result.
func TestContentTheModelCannotReadIsNamed(t *testing.T) {
	got := renderResult(&sdk.CallToolResult{Content: []sdk.Content{
		&sdk.AudioContent{MIMEType: "audio/wav", Data: []byte("RIFF....")},
		&sdk.ResourceLink{URI: "file:///docs/a.md", Name: "a.md"},
		&sdk.EmbeddedResource{},
		&sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: "db://dump", MIMEType: "application/octet-stream", Blob: []byte{0, 1, 2}}},
		&sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: "db://rows", MIMEType: "application/json; charset=utf-8", Blob: []byte(`{"rows":2}`)}},
		&sdk.AudioContent{MIMEType: strings.Repeat("x", 100), Data: []byte("a")},
		&sdk.AudioContent{MIMEType: " \n ", Data: []byte("a")},
	}}).result()
	want := []string{
		"[audio: audio/wav, 8 bytes; not shown]",
		"[resource link: file:///docs/a.md a.md]",
		"[resource]",
		"[resource db://dump: application/octet-stream, 3 bytes of binary data; not shown]",
		"[resource db://rows]\n{\"rows\":2}",
		"[audio: " + strings.Repeat("x", 60) + "…, 1 bytes; not shown]",
		"[audio: unknown type, 1 bytes; not shown]",
	}
	if got.Output != strings.Join(want, "\n") {
		t.Errorf("output:\n%s\nwant\n%s", got.Output, strings.Join(want, "\n"))
	}
	structured := renderResult(&sdk.CallToolResult{StructuredContent: map[string]any{"temperature": 21}}).result()
	if structured.Output != `{"temperature":21}` || structured.Summary != "1 line" {
		t.Errorf("a result with structured content only: %+v", structured)
	}
	if empty := renderResult(&sdk.CallToolResult{}).result(); empty.Summary != "no output" {
		t.Errorf("an empty result: %+v", empty)
	}
}

// The card for a server's tool shows the server, the tool's own name and
// every argument; its title fits a line.
func TestServerToolCardShowsEveryArgument(t *testing.T) {
	tl := &Tool{name: "mcp__gh__create_issue", remote: "create_issue", server: "gh"}
	preview, err := tl.Preview(context.Background(), json.RawMessage(`{"title":"x","body":"rm -rf /"}`))
	if err != nil || preview != "create_issue on MCP server gh\n{\n  \"title\": \"x\",\n  \"body\": \"rm -rf /\"\n}" {
		t.Errorf("preview %q, %v", preview, err)
	}
	if _, err := tl.Preview(context.Background(), json.RawMessage(`{"title":`)); err == nil || !strings.Contains(err.Error(), "must be a JSON object") {
		t.Errorf("a preview of broken arguments: %v", err)
	}
	if got := tl.Title(json.RawMessage("{}")); got != "mcp__gh__create_issue" {
		t.Errorf("title without arguments %q", got)
	}
	long := tl.Title(json.RawMessage(`{"body":  "` + strings.Repeat("é", 100) + `"}`))
	if !strings.HasPrefix(long, `mcp__gh__create_issue {"body": "éé`) || !strings.HasSuffix(long, "…") || len([]rune(long)) != len("mcp__gh__create_issue ")+81 {
		t.Errorf("a long title %q", long)
	}
	if tl.Server() != "gh" {
		t.Errorf("server %q", tl.Server())
	}
	list, read := resourceTool{read: false}, resourceTool{read: true}
	if got := read.Title(json.RawMessage(`{"server":"docs","uri":"file:///a.md"}`)); got != ReadResourceTool+" docs file:///a.md" {
		t.Errorf("read title %q", got)
	}
	if got := list.Title(json.RawMessage(`{}`)); got != list.Name() {
		t.Errorf("list title %q", got)
	}
	var schema struct{ Required []string }
	if json.Unmarshal(read.Schema(), &schema) != nil || strings.Join(schema.Required, ",") != "server,uri" || !json.Valid(list.Schema()) {
		t.Errorf("schemas %s / %s", read.Schema(), list.Schema())
	}
}

// Text from a server is cleaned of every escape sequence, however it
// ends: cut short, terminated by ST or BEL, or a lone ESC.
func TestCleanRemovesEscapesHoweverTheyEnd(t *testing.T) {
	for in, want := range map[string]string{
		"a\x1b":                     "a",
		"a\x1b[31":                  "a",
		"a\x1b]0;evil title":        "a",
		"a\x1bPdcs\x1b\\b":          "ab",
		"a\x1b]8;;http://x\x07b":    "ab",
		"a\x1béb":                   "ab",
		"line\n\ttab\u202eflip\x7f": "line\n\ttabflip",
	} {
		if got := clean(in); got != want {
			t.Errorf("clean(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestAllSettledAndStartupTimeout(t *testing.T) {
	if !AllSettled(nil) || !AllSettled([]event.MCPServer{{State: event.MCPConnected}, {State: event.MCPFailed}}) {
		t.Error("settled servers are not all settled")
	}
	if AllSettled([]event.MCPServer{{State: event.MCPConnected}, {State: event.MCPStarting}}) {
		t.Error("a starting server counts as settled")
	}
	m := NewManager(nil, Options{StartupTimeout: 7e9})
	if m.StartupTimeout() != 7e9 {
		t.Errorf("startup timeout %s", m.StartupTimeout())
	}
}
