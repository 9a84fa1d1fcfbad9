package mcp

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sync"

	"github.com/seed-e4e525a6/baton/agenttypes/jsonc"
)

// openCodeServer is one entry of OpenCode's "mcp" block.
type openCodeServer struct {
	Type        string            `json:"type"`
	Command     []string          `json:"command"`
	Environment map[string]string `json:"environment"`
	URL         string            `json:"url"`
	Headers     map[string]string `json:"headers"`
	Enabled     *bool             `json:"enabled"`
}

// ParseOpenCode reads the "mcp" block of an opencode.json or
// opencode.jsonc (comments and trailing commas allowed): type local
// (command as an array, environment) or remote (url, headers); entries
// with enabled: false are left out. {env:VAR} is expanded from env, as
// OpenCode does.
func ParseOpenCode(data []byte, source string, env func(string) (string, bool)) ([]Server, []string, error) {
	var file struct {
		MCP map[string]json.RawMessage `json:"mcp"`
	}
	if err := json.Unmarshal(jsonc.Strip(data), &file); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", source, jsonError(err))
	}
	var (
		servers  []Server
		warnings []string
	)
	for _, name := range slices.Sorted(maps.Keys(file.MCP)) {
		var o openCodeServer
		if err := json.Unmarshal(file.MCP[name], &o); err != nil {
			warnings = append(warnings, fmt.Sprintf("%s: mcp.%s: %v; skipped", source, name, jsonError(err)))
			continue
		}
		if o.Enabled != nil && !*o.Enabled {
			continue
		}
		s, err := o.server(name, env)
		if err == nil {
			err = s.Check()
		}
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("%s: mcp.%s: %v; skipped", source, name, err))
			continue
		}
		s.Source = source
		servers = append(servers, s)
	}
	return servers, warnings, nil
}

// openCodeVar matches OpenCode's {env:NAME}.
func openCodeVar() *regexp.Regexp {
	openCodeVarOnce.Do(func() { openCodeVarValue = regexp.MustCompile(`\{env:([A-Za-z_][A-Za-z0-9_]*)\}`) })
	return openCodeVarValue
}

// openCodeVarOnce and openCodeVarValue hold it, built on first use (a zero
// sync.Once costs nothing at start; sync.OnceValue is init code).
var (
	openCodeVarOnce  sync.Once
	openCodeVarValue *regexp.Regexp
)

// server converts the entry.
func (o openCodeServer) server(name string, env func(string) (string, bool)) (Server, error) {
	expand := func(s string) string {
		return openCodeVar().ReplaceAllStringFunc(s, func(ref string) string {
			v, _ := env(openCodeVar().FindStringSubmatch(ref)[1])
			return v
		})
	}
	expandMap := func(in map[string]string) map[string]string {
		if len(in) == 0 {
			return nil
		}
		out := make(map[string]string, len(in))
		for k, v := range in {
			out[k] = expand(v)
		}
		return out
	}
	switch o.Type {
	case "local":
		if len(o.Command) == 0 {
			return Server{}, fmt.Errorf("a local server needs a command array")
		}
		var cmd []string
		for _, c := range o.Command {
			cmd = append(cmd, expand(c))
		}
		return Server{Name: name, Command: cmd[0], Args: cmd[1:], Env: expandMap(o.Environment)}, nil
	case "remote":
		return Server{Name: name, URL: expand(o.URL), Headers: expandMap(o.Headers)}, nil
	}
	return Server{}, fmt.Errorf("type %q: expected local or remote", o.Type)
}
