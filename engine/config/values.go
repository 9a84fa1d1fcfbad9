package config

import (
	"fmt"
	"math"
	"net/url"
	"slices"
	"strings"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine/child"
)

// The types below are the leaves of a config file. Each validates its own
// TOML value in UnmarshalTOML, so a wrong type or a bad value is reported
// as "expected …, got …" under the key that holds it, instead of the TOML
// library's Go-typed wording. A nil pointer to one of them means "not set
// in this file", which is what layering needs.

// valueError says what a key expects and what the file gave.
type valueError struct {
	want string
	got  any
}

func (e valueError) Error() string {
	return fmt.Sprintf("expected %s, got %s", e.want, describe(e.got))
}

// describe renders a decoded TOML value the way the person wrote it.
func describe(v any) string {
	switch v := v.(type) {
	case string:
		return fmt.Sprintf("%q", v)
	case map[string]any:
		return "a table"
	case []map[string]any:
		return "an array of tables"
	case []any:
		parts := make([]string, len(v))
		for i, e := range v {
			parts[i] = describe(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	default:
		return fmt.Sprint(v)
	}
}

// text is a non-empty string: a model id or a secret.
type text string

// UnmarshalTOML implements toml.Unmarshaler.
func (t *text) UnmarshalTOML(v any) error {
	s, ok := v.(string)
	if !ok || strings.TrimSpace(s) == "" {
		return valueError{"a non-empty string", v}
	}
	*t = text(s)
	return nil
}

// endpointURL is the base URL of an OpenAI-compatible API.
type endpointURL string

// UnmarshalTOML implements toml.Unmarshaler.
func (u *endpointURL) UnmarshalTOML(v any) error {
	s, ok := v.(string)
	if !ok {
		return valueError{"an http(s) URL", v}
	}
	if err := CheckBaseURL(s); err != nil {
		return valueError{"an http(s) URL such as http://localhost:11434/v1", v}
	}
	*u = endpointURL(s)
	return nil
}

// CheckBaseURL accepts absolute http and https URLs; a typo here would
// otherwise surface much later as a confusing connection error.
func CheckBaseURL(s string) error {
	u, err := url.Parse(s)
	if err != nil {
		return err
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("not an http(s) URL: %q", s)
	}
	return nil
}

// flag is a boolean.
type flag bool

// UnmarshalTOML implements toml.Unmarshaler.
func (f *flag) UnmarshalTOML(v any) error {
	b, ok := v.(bool)
	if !ok {
		return valueError{"true or false", v}
	}
	*f = flag(b)
	return nil
}

// count is a positive integer: steps, seconds, characters, agents.
type count int

// UnmarshalTOML implements toml.Unmarshaler.
func (c *count) UnmarshalTOML(v any) error {
	n, ok := v.(int64)
	if !ok || n <= 0 || n > 1<<31-1 {
		return valueError{"a positive integer", v}
	}
	*c = count(n)
	return nil
}

// price is a non-negative number of dollars; 0 is a real price (a local
// model costs nothing), which is why it is not a count.
type price float64

// fraction is a share from 0 to 1, such as [context] auto_compact_at.
type fraction float64

// UnmarshalTOML implements toml.Unmarshaler.
func (f *fraction) UnmarshalTOML(v any) error {
	x, ok := tomlNumber(v)
	if !ok || x < 0 || x > 1 || math.IsNaN(x) {
		return valueError{"a number from 0 to 1 (0 turns it off)", v}
	}
	*f = fraction(x)
	return nil
}

// tomlNumber reads a TOML integer or float as a float: a price or a share
// may be written either way (1 or 0.5).
func tomlNumber(v any) (float64, bool) {
	switch n := v.(type) {
	case int64:
		return float64(n), true
	case float64:
		return n, true
	}
	return 0, false
}

// UnmarshalTOML implements toml.Unmarshaler.
func (p *price) UnmarshalTOML(v any) error {
	f, ok := tomlNumber(v)
	if !ok || f < 0 || math.IsNaN(f) || math.IsInf(f, 0) {
		return valueError{"a non-negative number", v}
	}
	*p = price(f)
	return nil
}

// toolList is a list of tool names baton has.
type toolList []string

// UnmarshalTOML implements toml.Unmarshaler.
func (l *toolList) UnmarshalTOML(v any) error {
	want := "a list of tool names (" + strings.Join(ToolNames(), ", ") + ", mcp__SERVER__TOOL, mcp__SERVER__*)"
	items, ok := v.([]any)
	if !ok {
		return valueError{want, v}
	}
	names := make([]string, 0, len(items))
	for _, item := range items {
		s, ok := item.(string)
		if !ok || !slices.Contains(ToolNames(), s) && !agenttypes.IsMCPTool(s) {
			return valueError{want, item}
		}
		names = append(names, s)
	}
	*l = names
	return nil
}

// cleanupMode says what happens to a child's transcript when the parent's
// turn ends.
type cleanupMode string

// UnmarshalTOML implements toml.Unmarshaler.
func (c *cleanupMode) UnmarshalTOML(v any) error {
	s, ok := v.(string)
	if !ok || (s != "keep" && s != "delete") {
		return valueError{`"keep" or "delete"`, v}
	}
	*c = cleanupMode(s)
	return nil
}

// themeName is a theme's name as written; which names exist is the front
// end's to say (Sources.Themes), checked once the file is decoded.
type themeName string

// UnmarshalTOML implements toml.Unmarshaler.
func (t *themeName) UnmarshalTOML(v any) error {
	s, ok := v.(string)
	if !ok || strings.TrimSpace(s) == "" {
		return valueError{"a theme name", v}
	}
	*t = themeName(s)
	return nil
}

// checkTheme refuses a theme name the front end does not draw; names
// compare as the themes package looks them up, case and spaces aside. No
// names at all accepts any.
func checkTheme(name themeName, known []string) error {
	if len(known) == 0 || slices.ContainsFunc(known, func(k string) bool { return strings.EqualFold(strings.TrimSpace(string(name)), k) }) {
		return nil
	}
	return valueError{"a theme name (" + strings.Join(known, ", ") + ")", string(name)}
}

// isolationMode is [subagents] isolation.
type isolationMode string

// UnmarshalTOML implements toml.Unmarshaler.
func (m *isolationMode) UnmarshalTOML(v any) error {
	s, _ := v.(string)
	switch s {
	case child.IsolationAuto, child.IsolationWorktree, child.IsolationShared:
		*m = isolationMode(s)
		return nil
	}
	return valueError{`"auto", "worktree" or "shared"`, v}
}

// runnerName is [subagents] runner: where children run.
type runnerName string

// UnmarshalTOML implements toml.Unmarshaler.
func (r *runnerName) UnmarshalTOML(v any) error {
	s, _ := v.(string)
	switch s {
	case child.RunnerLocal, child.RunnerProcess, child.RunnerContainer, child.RunnerKubernetes:
		*r = runnerName(s)
		return nil
	}
	return valueError{`"local", "process", "container" or "kubernetes"`, v}
}

// notifyMode says how baton calls the person back to a waiting card or a
// long turn that ended: "bell", "title" or "off".
type notifyMode string

// UnmarshalTOML implements toml.Unmarshaler.
func (n *notifyMode) UnmarshalTOML(v any) error {
	s, ok := v.(string)
	if !ok || (s != "bell" && s != "title" && s != "off") {
		return valueError{`"bell", "title" or "off"`, v}
	}
	*n = notifyMode(s)
	return nil
}

// commandList is [subagents] verify: one shell command, or a list of
// them run in order.
type commandList []string

// UnmarshalTOML implements toml.Unmarshaler.
func (l *commandList) UnmarshalTOML(v any) error {
	const want = `a command ("go test ./...") or a list of commands`
	var items []any
	switch v := v.(type) {
	case string:
		items = []any{v}
	case []any:
		items = v
	default:
		return valueError{want, v}
	}
	var out []string
	for _, item := range items {
		s, ok := item.(string)
		if !ok || strings.TrimSpace(s) == "" {
			return valueError{want, item}
		}
		out = append(out, strings.TrimSpace(s))
	}
	if len(out) == 0 {
		return valueError{want, v}
	}
	*l = out
	return nil
}
