package agenttypes

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// delegationTools are the names other tools give their delegation tool. A
// child's list naming one is not a reason to refuse the file: whether a
// child may delegate is the depth limit's call, so the entry is ignored.
var delegationTools = map[string]bool{TaskTool: true, "agent": true}

func isDelegation(name string) bool { return delegationTools[strings.ToLower(name)] }

// toolSet is the tools the program has, found by lowercased name; names
// keeps their order for messages.
type toolSet struct {
	byLower map[string]string
	names   []string
}

func newToolSet(names []string) toolSet {
	k := toolSet{byLower: make(map[string]string, len(names))}
	for _, n := range names {
		if n != "" && !isDelegation(n) {
			k.byLower[strings.ToLower(n)] = n
			k.names = append(k.names, n)
		}
	}
	return k
}

// resolve maps a tool name from a file to the program's name for it.
func (k toolSet) resolve(name string) (string, bool) {
	lower := strings.ToLower(name)
	if n, ok := k.byLower[lower]; ok {
		return n, true
	}
	if n, ok := k.byLower[toolAliases[lower]]; ok {
		return n, true
	}
	return "", false
}

// matching returns the tools whose name, or a Claude Code or OpenCode
// name for them, matches the glob pattern, in the program's order.
func (k toolSet) matching(pattern string) ([]string, error) {
	pattern = strings.ToLower(pattern)
	if _, err := path.Match(pattern, ""); err != nil {
		return nil, fmt.Errorf("tool pattern %q: %w", pattern, err)
	}
	var out []string
	for _, n := range k.names {
		if ok, _ := path.Match(pattern, strings.ToLower(n)); ok {
			out = appendNew(out, n)
		}
	}
	for alias, n := range toolAliases {
		if _, has := k.byLower[n]; has {
			if ok, _ := path.Match(pattern, alias); ok {
				out = appendNew(out, n)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b string) int { return slices.Index(k.names, a) - slices.Index(k.names, b) })
	return out, nil
}

// defaults is what a file without a tools field gets: the base tools the
// program has, never task.
func (k toolSet) defaults() []string {
	var out []string
	for _, n := range BaseTools {
		if _, ok := k.byLower[n]; ok {
			out = append(out, n)
		}
	}
	return out
}

// applyTools reads tools as a list of names (Claude Code), or as
// OpenCode's map of name to true/false on top of the defaults.
func applyTools(p *fileParser, t *Type, e entry) error {
	n := deref(e.value)
	if n.Kind == yaml.MappingNode {
		return p.toolSwitches(t, e.key, n)
	}
	if s, ok := scalar(n); ok && n.Kind != yaml.SequenceNode && strings.TrimSpace(s) == "" {
		t.Tools = p.known.defaults()
		return nil
	}
	list, _ := p.items(e.key, n)
	p.listed = true
	t.Tools = []string{}
	for _, it := range list {
		name, pattern := cutPattern(it.text)
		if isDelegation(name) {
			continue
		}
		if name == "*" {
			// Claude Code's "every tool", as when tools is left out.
			for _, n := range p.known.defaults() {
				t.Tools = appendNew(t.Tools, n)
			}
			continue
		}
		if IsMCPTool(name) {
			t.Tools = appendNew(t.Tools, name)
			continue
		}
		resolved, ok := p.known.resolve(name)
		if !ok {
			t.DroppedTools = appendNew(t.DroppedTools, name)
			continue
		}
		if pattern != "" {
			p.warn(it.line, "%s: argument patterns are not supported, so all of %s is allowed", it.text, resolved)
		}
		t.Tools = appendNew(t.Tools, resolved)
	}
	return nil
}

// toolSwitches applies OpenCode's form, tools: {write: false, "mcp_*":
// false}: entries apply in order, so a later one overrides an earlier one
// it overlaps, and a pattern switches every tool whose name it matches.
func (p *fileParser) toolSwitches(t *Type, key string, m *yaml.Node) error {
	t.Tools = p.known.defaults()
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := deref(m.Content[i]), deref(m.Content[i+1])
		name, ok := scalar(k)
		var on bool
		if !ok || v.Kind != yaml.ScalarNode || v.Decode(&on) != nil {
			return p.skip(lineOf(k), "%s: each entry must be a tool name set to true or false", key)
		}
		if isDelegation(name) {
			continue
		}
		if IsMCPTool(name) {
			t.Tools = slices.DeleteFunc(t.Tools, func(s string) bool { return s == name })
			if on {
				t.Tools = append(t.Tools, name)
			}
			continue
		}
		var names []string
		if strings.ContainsAny(name, "*?[") {
			matched, err := p.known.matching(name)
			if err != nil {
				p.warn(lineOf(k), "%s: bad tool pattern %s; ignored", key, name)
				continue
			}
			names = matched
		} else if resolved, known := p.known.resolve(name); known {
			names = []string{resolved}
		} else if on {
			t.DroppedTools = appendNew(t.DroppedTools, name)
		}
		for _, n := range names {
			if on {
				t.Tools = appendNew(t.Tools, n)
				delete(p.off, n)
			} else {
				t.Tools = slices.DeleteFunc(t.Tools, func(s string) bool { return s == n })
				if p.off == nil {
					p.off = make(map[string]bool)
				}
				p.off[n] = true
			}
		}
	}
	return nil
}

// applyDisallowed removes tools; a name baton lacks needs no removing.
func applyDisallowed(p *fileParser, t *Type, e entry) error {
	list, ok := p.items(e.key, e.value)
	if !ok {
		return p.skip(e.line, "%s must be a comma-separated string or a list of tool names", e.key)
	}
	for _, it := range list {
		name, pattern := cutPattern(it.text)
		resolved, known := p.known.resolve(name)
		if IsMCPTool(name) {
			resolved, known = name, true
		}
		if known && pattern != "" {
			p.warn(it.line, "%s: argument patterns are not supported, so all of %s is removed", it.text, resolved)
		}
		t.Tools = slices.DeleteFunc(t.Tools, func(s string) bool { return known && s == resolved })
		t.DroppedTools = slices.DeleteFunc(t.DroppedTools, func(s string) bool { return strings.EqualFold(s, name) })
	}
	return nil
}

// cutPattern splits Claude Code's "Bash(git diff:*)" into the tool name
// and its argument pattern.
func cutPattern(s string) (name, pattern string) {
	open := strings.IndexByte(s, '(')
	if open <= 0 || !strings.HasSuffix(s, ")") {
		return s, ""
	}
	return strings.TrimSpace(s[:open]), s[open+1 : len(s)-1]
}

// MCPToolPrefix starts the name of every tool an MCP server offers.
const MCPToolPrefix = "mcp__"

// IsMCPTool reports whether name is an MCP tool as agent files list them:
// mcp__SERVER__TOOL, or a pattern ending in '*' (mcp__SERVER__*). The
// names stay in a type's tools as written; the engine resolves them
// against the servers connected when a child is built.
func IsMCPTool(name string) bool {
	rest, ok := strings.CutPrefix(name, MCPToolPrefix)
	if !ok || rest == "" {
		return false
	}
	body := strings.TrimSuffix(rest, "*")
	return !strings.ContainsAny(body, "*() ,") && strings.Trim(body, "_-") != "" || rest == "*"
}
