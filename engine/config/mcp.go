package config

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/seed-e4e525a6/baton/engine/mcp"
)

// MCPSetup is the MCP part of a run: the servers to start, how long each
// may take, and what the person should be told about them.
type MCPSetup struct {
	Servers        []mcp.Server
	StartupTimeout time.Duration
	// CallTimeout is [mcp] call_timeout_s; zero takes the default.
	CallTimeout time.Duration
	Notices     []string
}

// maxMCPConfigBytes bounds a --mcp-config file.
const maxMCPConfigBytes = 1 << 20

// MCP gathers the servers of every source, lowest precedence first: the
// user's (OpenCode, ~/.claude.json, baton's user config), the project's
// (opencode.json, .mcp.json, baton's project config), the ones
// ~/.claude.json keeps for this folder, then --mcp-config. Until the
// person trusts the folder (src.Trusted), the project's servers start
// only once allowed one by one (TUI) or not at all (headless), and never
// replace a server of the person's own.
func (c Config) MCP(src Sources, headless bool) (MCPSetup, error) {
	env, workspace := src.Env, src.Workspace
	var environ []string
	for k, v := range env {
		environ = append(environ, k+"="+v)
	}
	lookup := mcp.EnvLookup(environ)
	found := mcp.Discover(mcp.Sources{Workspace: workspace, Home: env["HOME"], OpenCodeDir: openCodeDir(env), Env: lookup})
	setup := MCPSetup{StartupTimeout: c.mcpStartupTimeout(), CallTimeout: c.MCPTimeouts.Call, Notices: found.Warnings}
	var fromFlag []mcp.Server
	for _, arg := range src.Flags.MCPConfigs {
		servers, warnings, err := readMCPConfig(arg, lookup)
		if err != nil {
			return MCPSetup{}, fmt.Errorf("--mcp-config: %w", err)
		}
		fromFlag = mcp.Merge(fromFlag, servers)
		setup.Notices = append(setup.Notices, warnings...)
	}
	if src.Flags.Claude.StrictMCP {
		// --strict-mcp-config: the servers of --mcp-config and no others,
		// and no word about the files it leaves unread.
		setup.Servers, setup.Notices = fromFlag, setup.Notices[len(found.Warnings):]
		return setup, nil
	}
	own := mcp.Merge(found.User, c.MCPUser, found.Local, fromFlag)
	project := mcp.Merge(found.Project, c.MCPProject)
	if src.Trusted {
		for i := range project {
			project[i].Project = false
		}
	} else {
		project = slices.DeleteFunc(project, func(s mcp.Server) bool {
			return slices.ContainsFunc(own, func(o mcp.Server) bool { return o.Name == s.Name })
		})
		if note := untrustedNotice(project, headless); note != "" {
			setup.Notices = append(setup.Notices, note)
		}
	}
	setup.Servers = mcp.Merge(found.User, c.MCPUser, project, found.Local, fromFlag)
	return setup, nil
}

// untrustedNotice names the project files whose servers wait for trust,
// and how to give it.
func untrustedNotice(project []mcp.Server, headless bool) string {
	if len(project) == 0 {
		return ""
	}
	var files, names []string
	for _, s := range project {
		if !slices.Contains(files, s.Source) {
			files = append(files, s.Source)
		}
		names = append(names, s.Name)
	}
	what := fmt.Sprintf("%s: MCP servers %s", strings.Join(files, ", "), strings.Join(names, ", "))
	if headless {
		return what + " not started: this folder is not trusted (run `baton trust` in it to start them)"
	}
	return what + " wait for your approval: this folder is not trusted (`baton trust` trusts it)"
}

// readMCPConfig reads one --mcp-config value: a file in Claude Code's
// JSON form, or that JSON written inline.
func readMCPConfig(arg string, lookup func(string) (string, bool)) ([]mcp.Server, []string, error) {
	if strings.HasPrefix(strings.TrimSpace(arg), "{") {
		return mcp.ParseClaude([]byte(arg), "--mcp-config", lookup)
	}
	info, err := os.Stat(arg)
	if err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", arg, err)
	}
	if !info.Mode().IsRegular() || info.Size() > maxMCPConfigBytes {
		return nil, nil, fmt.Errorf("read %s: not a regular file of at most %d KiB", arg, maxMCPConfigBytes>>10)
	}
	data, err := os.ReadFile(arg)
	if err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", arg, err)
	}
	return mcp.ParseClaude(data, arg, lookup)
}

// openCodeDir is OpenCode's user folder, under the XDG config home.
func openCodeDir(env map[string]string) string {
	if dir := env["XDG_CONFIG_HOME"]; filepath.IsAbs(dir) {
		return filepath.Join(dir, "opencode")
	}
	if home := env["HOME"]; home != "" {
		return filepath.Join(home, ".config", "opencode")
	}
	return ""
}
