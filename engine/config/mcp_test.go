package config

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/engine/mcp"
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

// TestMCPConfigFlagFiles: --mcp-config takes inline JSON or a regular
// file of at most 1 MiB; a folder, a file too large or one missing is an
// error naming it.
func TestMCPConfigFlagFiles(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "servers.json")
	writeFile(t, good, `{"mcpServers": {"fs": {"command": "fs-server"}}}`)
	big := filepath.Join(dir, "big.json")
	writeFile(t, big, `{"mcpServers": {}, "pad": "`+strings.Repeat("x", maxMCPConfigBytes)+`"}`)
	w := newConfigWorld(t, "", "")
	cfg := w.loadAs(t, true)
	load := func(arg string) (MCPSetup, error) {
		return cfg.MCP(Sources{Flags: Overrides{MCPConfigs: []string{arg}}, Env: map[string]string{"HOME": w.home}, Workspace: w.workspace, Trusted: true}, true)
	}
	if setup, err := load(good); err != nil || len(setup.Servers) != 1 || setup.Servers[0].Source != good {
		t.Errorf("file: %+v, %v", setup.Servers, err)
	}
	for arg, want := range map[string]string{dir: "not a regular file", big: "at most 1024 KiB", filepath.Join(dir, "none.json"): "no such file"} {
		if _, err := load(arg); err == nil || !strings.Contains(err.Error(), "--mcp-config: read "+arg) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", arg, err, want)
		}
	}
}

// TestMCPStartupTimeoutIsBounded: [mcp] startup_timeout_s reaches the
// servers, never past the hard maximum; unset, the default applies.
func TestMCPStartupTimeoutIsBounded(t *testing.T) {
	for toml, want := range map[string]time.Duration{
		"":                                  mcp.DefaultStartupTimeout,
		"[mcp]\nstartup_timeout_s = 5\n":    5 * time.Second,
		"[mcp]\nstartup_timeout_s = 9999\n": mcp.MaxStartupTimeout,
	} {
		w := newConfigWorld(t, toml, "")
		cfg, err := w.load(t, Overrides{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := cfg.mcpStartupTimeout(); got != want {
			t.Errorf("%q: startup timeout %s, want %s", toml, got, want)
		}
	}
}
