package config

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/seed-e4e525a6/baton/engine/mcp"
)

// mcpFile is the [mcp] table: how long servers may take to start and to
// answer one tool call, and [mcp.servers.NAME] tables, each a stdio server
// (command, args, env) or an HTTP one (url, headers; type = "sse" for the
// older transport), with its own call_timeout_s if it needs one.
type mcpFile struct {
	StartupTimeoutS *count                   `toml:"startup_timeout_s"`
	CallTimeoutS    *count                   `toml:"call_timeout_s"`
	Servers         map[string]mcpServerFile `toml:"servers"`
}

// MCPTimeouts are the merged [mcp] bounds; zero takes the default.
type MCPTimeouts struct {
	Startup, Call time.Duration
}

// mcpServerFile is one [mcp.servers.NAME] table, checked as it is decoded.
type mcpServerFile struct {
	server mcp.Server
}

// mcpServerKeys are the keys an [mcp.servers.NAME] table accepts.
var mcpServerKeys = []string{"command", "args", "env", "url", "headers", "type", "call_timeout_s"}

// UnmarshalTOML implements toml.Unmarshaler.
func (f *mcpServerFile) UnmarshalTOML(v any) error {
	table, ok := v.(map[string]any)
	if !ok {
		return valueError{"a table ([mcp.servers.NAME])", v}
	}
	var s mcp.Server
	for _, key := range slices.Sorted(maps.Keys(table)) {
		val := table[key]
		var err error
		switch key {
		case "command":
			s.Command, err = tomlString(val, "a command")
		case "url":
			s.URL, err = tomlString(val, "an http(s) URL")
		case "type":
			var typ string
			typ, err = tomlString(val, `"stdio", "http" or "sse"`)
			if err == nil && typ != "stdio" && typ != "http" && typ != "sse" {
				err = valueError{`"stdio", "http" or "sse"`, val}
			}
			s.SSE = typ == "sse"
		case "args":
			s.Args, err = tomlStrings(val)
		case "env":
			s.Env, err = tomlStringMap(val)
		case "headers":
			s.Headers, err = tomlStringMap(val)
		case "call_timeout_s":
			var n count
			err = n.UnmarshalTOML(val)
			if max := inSeconds(mcp.MaxCallTimeout); err == nil && int(n) > max {
				err = fmt.Errorf("expected at most %d, got %d", max, int(n))
			}
			s.CallTimeout = seconds(n)
		default:
			err = fmt.Errorf("unknown key %q (known: %s)", key, strings.Join(mcpServerKeys, ", "))
		}
		if err != nil {
			return fmt.Errorf("%s: %w", key, err)
		}
	}
	f.server = s
	return nil
}

// tomlString, tomlStrings and tomlStringMap check the shapes of a server
// table's values.
func tomlString(v any, want string) (string, error) {
	s, ok := v.(string)
	if !ok || strings.TrimSpace(s) == "" {
		return "", valueError{want, v}
	}
	return s, nil
}

func tomlStrings(v any) ([]string, error) {
	items, ok := v.([]any)
	if !ok {
		return nil, valueError{"a list of strings", v}
	}
	out := make([]string, 0, len(items))
	for _, it := range items {
		s, ok := it.(string)
		if !ok {
			return nil, valueError{"a list of strings", v}
		}
		out = append(out, s)
	}
	return out, nil
}

func tomlStringMap(v any) (map[string]string, error) {
	table, ok := v.(map[string]any)
	if !ok {
		return nil, valueError{"a table of strings", v}
	}
	out := make(map[string]string, len(table))
	for k, val := range table {
		s, ok := val.(string)
		if !ok {
			return nil, valueError{"a table of strings", v}
		}
		out[k] = s
	}
	return out, nil
}

// applyMCPTimeouts layers the bounds of an [mcp] table.
func (c *Config) applyMCPTimeouts(f mcpFile) {
	if f.StartupTimeoutS != nil {
		c.MCPTimeouts.Startup = min(seconds(*f.StartupTimeoutS), mcp.MaxStartupTimeout)
	}
	setSeconds(&c.MCPTimeouts.Call, f.CallTimeoutS)
}

// applyMCP layers the servers of an [mcp] table; the servers of each file
// are kept apart because the project's need folder trust.
func (c *Config) applyMCP(f mcpFile, from source, display string) error {
	for _, name := range slices.Sorted(maps.Keys(f.Servers)) {
		s := f.Servers[name].server
		s.Name, s.Source, s.Project = name, display, from == fromProject
		if err := s.Check(); err != nil {
			if from == fromProject {
				// A repository never keeps baton from starting.
				c.Notices = append(c.Notices, fmt.Sprintf("%s: mcp.servers.%s: %v; ignored", display, name, err))
				continue
			}
			return fmt.Errorf("%s: mcp.servers.%s: %w", display, name, err)
		}
		if from == fromProject {
			c.MCPProject = append(c.MCPProject, s)
		} else {
			c.MCPUser = append(c.MCPUser, s)
		}
	}
	return nil
}

// mcpStartupTimeout is [mcp] startup_timeout_s, or the default.
func (c Config) mcpStartupTimeout() time.Duration {
	if c.MCPTimeouts.Startup > 0 {
		return c.MCPTimeouts.Startup
	}
	return mcp.DefaultStartupTimeout
}
