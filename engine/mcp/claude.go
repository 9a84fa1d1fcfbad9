package mcp

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/seed-e4e525a6/baton/engine/tools"
)

// claudeServer is one entry of Claude Code's mcpServers: type is "stdio"
// (the default with a command), "http" or "sse".
type claudeServer struct {
	Type    string            `json:"type"`
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
	URL     string            `json:"url"`
	Headers map[string]string `json:"headers"`
}

// ParseClaude reads Claude Code's JSON form, {"mcpServers": {NAME: {…}}},
// as .mcp.json and --mcp-config hold it. ${VAR} and ${VAR:-default} are
// expanded from env, as Claude Code does. A bad entry is skipped with a
// warning; a file that is not that JSON is an error.
func ParseClaude(data []byte, source string, env func(string) (string, bool)) ([]Server, []string, error) {
	var file struct {
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", source, jsonError(err))
	}
	servers, warnings := claudeServers(file.MCPServers, source, env)
	return servers, warnings, nil
}

// claudeServers turns a mcpServers object into servers, in name order.
func claudeServers(raw map[string]json.RawMessage, source string, env func(string) (string, bool)) ([]Server, []string) {
	var (
		servers  []Server
		warnings []string
	)
	for _, name := range slices.Sorted(maps.Keys(raw)) {
		var c claudeServer
		if err := json.Unmarshal(raw[name], &c); err != nil {
			warnings = append(warnings, fmt.Sprintf("%s: mcpServers.%s: %v; skipped", source, name, jsonError(err)))
			continue
		}
		s, err := c.server(name, env)
		if err == nil {
			err = s.Check()
		}
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("%s: mcpServers.%s: %v; skipped", source, name, err))
			continue
		}
		s.Source = source
		servers = append(servers, s)
	}
	return servers, warnings
}

// server converts the entry, expanding variables.
func (c claudeServer) server(name string, env func(string) (string, bool)) (Server, error) {
	x := expander{lookup: env}
	s := Server{Name: name}
	switch c.Type {
	case "", "stdio":
		if c.URL != "" && c.Command == "" && c.Type == "" {
			s.URL, s.Headers = x.str(c.URL), x.strMap(c.Headers)
			break
		}
		s.Command, s.Args, s.Env = x.str(c.Command), x.strs(c.Args), x.strMap(c.Env)
	case "http", "streamable-http", "sse":
		s.URL, s.Headers, s.SSE = x.str(c.URL), x.strMap(c.Headers), c.Type == "sse"
	default:
		return Server{}, fmt.Errorf("unknown type %q (expected stdio, http or sse)", c.Type)
	}
	if len(x.missing) > 0 {
		return Server{}, fmt.Errorf("environment variable %s is not set and has no default", strings.Join(x.missing, ", "))
	}
	return s, nil
}

// expander replaces ${VAR} and ${VAR:-default}, noting unset variables.
type expander struct {
	lookup  func(string) (string, bool)
	missing []string
}

// varRef matches ${NAME} and ${NAME:-default}.
func varRef() *regexp.Regexp {
	varRefOnce.Do(func() { varRefValue = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)(:-([^}]*))?\}`) })
	return varRefValue
}

// varRefOnce and varRefValue hold it, built on first use (a zero
// sync.Once costs nothing at start; sync.OnceValue is init code).
var (
	varRefOnce  sync.Once
	varRefValue *regexp.Regexp
)

func (x *expander) str(s string) string {
	return varRef().ReplaceAllStringFunc(s, func(ref string) string {
		m := varRef().FindStringSubmatch(ref)
		if v, ok := x.lookup(m[1]); ok && v != "" {
			return v
		}
		if m[2] != "" {
			return m[3]
		}
		if !slices.Contains(x.missing, m[1]) {
			x.missing = append(x.missing, m[1])
		}
		return ""
	})
}

func (x *expander) strs(in []string) []string {
	var out []string
	for _, s := range in {
		out = append(out, x.str(s))
	}
	return out
}

func (x *expander) strMap(in map[string]string) map[string]string {
	if len(in) == 0 {
		return nil
	}
	out := make(map[string]string, len(in))
	for k, v := range in {
		out[k] = x.str(v)
	}
	return out
}

// jsonError words a decoding failure without Go type names where it can.
func jsonError(err error) error {
	if se, ok := err.(*json.SyntaxError); ok {
		return fmt.Errorf("invalid JSON at byte %d: %v", se.Offset, se)
	}
	if te, ok := err.(*json.UnmarshalTypeError); ok && te.Field != "" {
		return fmt.Errorf("%s: expected %s, got %s", te.Field, te.Type.Kind(), te.Value)
	}
	return err
}

// EnvLookup returns the lookup variables are expanded from: environ less
// the variables baton keeps to itself, so no config can copy the API key
// into a command line, URL or header.
func EnvLookup(environ []string) func(string) (string, bool) {
	env := make(map[string]string)
	for _, kv := range tools.WithoutSecrets(environ) {
		if k, v, ok := strings.Cut(kv, "="); ok {
			env[k] = v
		}
	}
	return func(name string) (string, bool) {
		v, ok := env[name]
		return v, ok
	}
}
