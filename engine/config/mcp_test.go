package config

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestMCPFlagsAndConfigErrors(t *testing.T) {
	if _, err := ParseAllow([]string{"mcp__github__*,mcp__fs__read,read_file"}); err != nil {
		t.Errorf("mcp names refused: %v", err)
	}
	if _, err := ParseAllow([]string{"mcp__"}); err == nil {
		t.Error("a bare mcp__ was accepted")
	}
	bad := map[string]string{
		"[mcp.servers.x]\ncommand = 3\n":           "mcp.servers.x: command: expected a command, got 3",
		"[mcp.servers.x]\ncomand = \"a\"\n":        `unknown key "comand"`,
		"[mcp.servers.x]\nurl = \"ftp://h\"\n":     "expected an http(s) URL",
		"[mcp.servers.x]\n":                        "give a command (stdio server) or a url",
		"[mcp]\nstartup_timeout_s = 0\n":           "expected a positive integer",
		"[mcp]\ntimeout = 3\n":                     `unknown key "mcp.timeout" (known in [mcp]: startup_timeout_s, call_timeout_s, servers)`,
		"[mcp]\ncall_timeout_s = 601\n":            "mcp.call_timeout_s: expected at most 600, got 601",
		"[mcp.servers.x]\ncall_timeout_s = 0\n":    "mcp.servers.x: call_timeout_s: expected a positive integer, got 0",
		"[mcp.servers.x]\ncall_timeout_s = 601\n":  "mcp.servers.x: call_timeout_s: expected at most 600, got 601",
		"[mcp.servers.x]\ntype = \"carrier\"\n":    `expected "stdio", "http" or "sse"`,
		"[mcp.servers.x]\nargs = [\"a\", 1]\n":     "expected a list of strings",
		"[mcp.servers.x]\nenv = { A = 1 }\n":       "expected a table of strings",
		"[mcp.servers.\"a b\"]\ncommand = \"x\"\n": `server name "a b"`,
	}
	for toml, want := range bad {
		w := newConfigWorld(t, toml, "")
		_, err := w.load(t, Overrides{}, nil)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err = %v, want %q", toml, err, want)
		}
	}
}

func TestMCPServersFromEverySourceAndTrust(t *testing.T) {
	w := newConfigWorld(t, "[mcp.servers.mine]\ncommand = \"my-server\"\n[mcp.servers.gh]\nurl = \"https://user.example/mcp\"\n",
		"[mcp.servers.proj]\ncommand = \"proj-server\"\n")
	writeFile(t, filepath.Join(w.workspace, ".mcp.json"), `{"mcpServers": {"gh": {"command": "evil"}, "docs": {"command": "docs-server"}}}`)
	cfg, err := w.load(t, Overrides{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	src := Sources{Flags: Overrides{MCPConfigs: []string{`{"mcpServers": {"extra": {"type": "http", "url": "https://x.example"}}}`}},
		Env: map[string]string{"HOME": w.home}, Workspace: w.workspace}
	untrusted, err := cfg.MCP(src, false)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, s := range untrusted.Servers {
		got[s.Name] = s.Source + "|" + s.Target()
		if s.Project != (s.Name == "docs" || s.Name == "proj") {
			t.Errorf("%s: project = %v", s.Name, s.Project)
		}
	}
	if got["gh"] != filepath.Join(w.home, ".config", "baton", "config.toml")+"|https://user.example/mcp" || got["extra"] == "" || len(got) != 5 {
		t.Errorf("servers = %v", got)
	}
	if len(untrusted.Notices) != 1 || !strings.Contains(untrusted.Notices[0], ".mcp.json, .baton/config.toml: MCP servers docs, proj wait for your approval") {
		t.Errorf("notices = %q", untrusted.Notices)
	}
	src.Trusted = true
	trusted, _ := cfg.MCP(src, false)
	for _, s := range trusted.Servers {
		if s.Project || s.Name == "gh" && s.Command != "evil" {
			t.Errorf("trusted: %+v", s)
		}
	}
	src.Flags.MCPConfigs = []string{"/nonexistent.json"}
	if _, err := cfg.MCP(src, true); err == nil ||
		!strings.Contains(err.Error(), "--mcp-config: read /nonexistent.json") {
		t.Errorf("missing file: %v", err)
	}
}

// TestMCPCallTimeoutsFromConfig: [mcp] call_timeout_s and a server's own
// reach the servers; an untrusted project may lower the bound, never
// raise it.
func TestMCPCallTimeoutsFromConfig(t *testing.T) {
	w := newConfigWorld(t, "[mcp]\ncall_timeout_s = 60\n[mcp.servers.slow]\ncommand = \"slow\"\ncall_timeout_s = 300\n", "")
	cfg, err := w.load(t, Overrides{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.MCPTimeouts.Call != time.Minute || len(cfg.MCPUser) != 1 || cfg.MCPUser[0].CallTimeout != 5*time.Minute {
		t.Fatalf("call timeouts: [mcp] %s, servers %+v", cfg.MCPTimeouts.Call, cfg.MCPUser)
	}
	setup, err := cfg.MCP(Sources{Env: map[string]string{"HOME": w.home}, Workspace: w.workspace, Trusted: true}, true)
	if err != nil || setup.CallTimeout != time.Minute {
		t.Fatalf("setup call timeout %s, %v", setup.CallTimeout, err)
	}
	for project, want := range map[string]time.Duration{"[mcp]\ncall_timeout_s = 30\n": 30 * time.Second, "[mcp]\ncall_timeout_s = 600\n": time.Minute} {
		w := newConfigWorld(t, "[mcp]\ncall_timeout_s = 60\n", project)
		cfg, err := Load(Sources{Env: map[string]string{"HOME": w.home}, Workspace: w.workspace})
		if err != nil || cfg.MCPTimeouts.Call != want {
			t.Errorf("untrusted %q: call timeout %s, %v; want %s", project, cfg.MCPTimeouts.Call, err, want)
		}
	}
}
