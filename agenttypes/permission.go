package agenttypes

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// strictness orders OpenCode's actions: a stricter rule wins in Rules.
var strictness = map[string]int{"allow": 1, "ask": 2, "deny": 3}

// exception is one pattern of a permission key with its action.
type exception struct{ pattern, action string }

// permGroup is what one permission key says: a default action for the
// whole tool ("" when unset) and the patterns that differ from it.
type permGroup struct {
	fallback   string
	exceptions []exception
	line       int
	// implicit groups were not named: the top-level "*" made them.
	implicit bool
}

// applyPermission reads OpenCode's permission: into Rules. A key's "*"
// entry (or the top-level "*") is the tool's default and its named
// patterns are exceptions to it, wherever the "*" stands: that is what
// the files people share mean by it. A tool denied outright is removed,
// as OpenCode disables it.
func applyPermission(p *fileParser, t *Type, e entry) error {
	n := deref(e.value)
	groups := make(map[string]*permGroup)
	var order []string
	global := ""
	if n.Kind == yaml.ScalarNode {
		global = p.action(e.key, n)
	} else if n.Kind != yaml.MappingNode {
		p.warn(e.line, "%s must be allow, ask or deny, or a map of tools to those; ignored", e.key)
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := deref(n.Content[i]), deref(n.Content[i+1])
		key, _ := scalar(k)
		key = strings.ToLower(strings.TrimSpace(key))
		if key == "*" {
			global = p.action(e.key+".*", v)
			continue
		}
		if _, ok := permissionTools[key]; !ok {
			continue
		}
		g := &permGroup{line: lineOf(k)}
		p.readGroup(e.key+"."+key, v, g)
		if _, seen := groups[key]; !seen {
			order = append(order, key)
		}
		groups[key] = g
	}
	// A key the file names decides its tools; the top-level "*" only
	// fills in tools no named key covers, so "edit: allow" under "*": deny
	// gives write_file as well as edit_file (OpenCode's edit covers every
	// tool that changes a file).
	named := map[string]bool{}
	for _, key := range order {
		for _, tool := range permissionTools[key] {
			named[tool] = true
		}
	}
	for key := range permissionTools {
		if _, ok := groups[key]; !ok && global != "" {
			order = append(order, key)
			groups[key] = &permGroup{implicit: true}
		}
	}
	slices.Sort(order)
	for _, key := range order {
		g := groups[key]
		if g.fallback == "" {
			g.fallback = global
		}
		tools := permissionTools[key]
		if g.implicit {
			tools = slices.DeleteFunc(slices.Clone(tools), func(tool string) bool { return named[tool] })
		}
		p.emitRules(t, tools, g)
	}
	return nil
}

// readGroup reads one key: an action, or a map of patterns to actions.
func (p *fileParser) readGroup(key string, v *yaml.Node, g *permGroup) {
	if v.Kind != yaml.MappingNode {
		g.fallback = p.action(key, v)
		return
	}
	for i := 0; i+1 < len(v.Content); i += 2 {
		pat, _ := scalar(deref(v.Content[i]))
		action := p.action(key+"."+pat, deref(v.Content[i+1]))
		switch pat = strings.TrimSpace(pat); {
		case action == "":
		case pat == "*" || pat == "**":
			g.fallback = action
		case pat != "":
			g.exceptions = append(g.exceptions, exception{pat, action})
		}
	}
}

// action reads allow, ask or deny; anything else is warned about and "".
func (p *fileParser) action(key string, n *yaml.Node) string {
	s, ok := scalar(n)
	a := strings.ToLower(strings.TrimSpace(s))
	if !ok || strictness[a] == 0 {
		p.warn(lineOf(n), "permission %s must be allow, ask or deny; ignored", key)
		return ""
	}
	return a
}

// emitRules writes one key's rules for each of the tools it governs. The default
// becomes a rule on the whole tool: in an agent's own rules the engine
// decides patterns before bare tool names, so the default stays the
// fallback for calls no pattern names ("git diff*": allow, "*": deny runs
// git diff and nothing else). A tool denied with no laxer exception is
// removed, as OpenCode disables it.
func (p *fileParser) emitRules(t *Type, tools []string, g *permGroup) {
	laxer := slices.ContainsFunc(g.exceptions, func(x exception) bool { return strictness[x.action] < strictness[g.fallback] })
	for _, tool := range tools {
		for _, x := range g.exceptions {
			if x.action != g.fallback {
				addRule(&t.Permissions, x.action, tool+"("+rulePattern(tool, x.pattern)+")")
			}
		}
		if g.fallback != "" {
			addRule(&t.Permissions, g.fallback, tool)
		}
		if g.fallback == "deny" && !laxer {
			t.Tools = slices.DeleteFunc(t.Tools, func(s string) bool { return s == tool })
		}
		if p.grants(tool, g.fallback) {
			t.Tools = appendNew(t.Tools, tool)
		}
	}
}

// rulePattern turns an OpenCode pattern into Claude Code's: a command
// pattern ending in one "*" is a prefix rule ("git log*" → "git log:*").
func rulePattern(tool, pattern string) string {
	if tool != "run_command" || strings.Count(pattern, "*") != 1 || !strings.HasSuffix(pattern, "*") {
		return pattern
	}
	prefix := strings.TrimRight(strings.TrimSuffix(pattern, "*"), " ")
	if prefix == "" {
		return pattern
	}
	return prefix + ":*"
}

func addRule(r *Rules, action, rule string) {
	switch action {
	case "allow":
		r.Allow = appendNew(r.Allow, rule)
	case "ask":
		r.Ask = appendNew(r.Ask, rule)
	case "deny":
		r.Deny = appendNew(r.Deny, rule)
	}
}

// grants reports whether a permission for a tool baton leaves out of the
// defaults (web_fetch) hands it to the agent: in OpenCode every agent has
// webfetch unless its tools map turns it off, so "webfetch: allow" (or
// ask) means the agent fetches. A Claude Code tools list names every
// tool the agent gets, so there a permission adds nothing.
func (p *fileParser) grants(tool, action string) bool {
	if action != "allow" && action != "ask" || p.listed || p.off[tool] || !slices.Contains(GrantedTools, tool) {
		return false
	}
	_, known := p.known.resolve(tool)
	return known
}

// withheldDefaults notes the tools an OpenCode agent has only by
// OpenCode's default (web_fetch): its file neither lists its tools, nor
// switches the tool on or off, nor sets a permission for it.
func (p *fileParser) withheldDefaults(t *Type) {
	if !p.opts.openCode || p.listed {
		return
	}
	for _, tool := range GrantedTools {
		if _, known := p.known.resolve(tool); !known || p.off[tool] || slices.Contains(t.Tools, tool) ||
			slices.Contains(t.Permissions.Deny, tool) {
			continue
		}
		t.WithheldTools = appendNew(t.WithheldTools, tool)
	}
}

// WithheldNote says what baton withholds from an agent defined in source
// that relied on OpenCode's defaults, and how to grant it; "" for none.
func WithheldNote(withheld []string, source string) string {
	if len(withheld) == 0 {
		return ""
	}
	keys := make([]string, len(withheld))
	for i, tool := range withheld {
		keys[i] = openCodeKey(tool)
	}
	return fmt.Sprintf("%s withheld: OpenCode gives every agent %s by default; baton gives it to a sub-agent only when its file asks: "+
		"add %s: allow under permission: in %s", strings.Join(withheld, " "), strings.Join(keys, " "), strings.Join(keys, ": allow, "), source)
}

// openCodeKey is OpenCode's permission key for a baton tool.
func openCodeKey(tool string) string {
	for key, tools := range permissionTools {
		if len(tools) == 1 && tools[0] == tool {
			return key
		}
	}
	return tool
}

// WithheldBrief is WithheldNote in a line a card has room for: the tools,
// and what grants them in which file.
func WithheldBrief(withheld []string, source string) string {
	if len(withheld) == 0 {
		return ""
	}
	keys := make([]string, len(withheld))
	for i, tool := range withheld {
		keys[i] = openCodeKey(tool) + ": allow"
	}
	return fmt.Sprintf("%s (OpenCode's default; to grant: %s under permission: in %s)", strings.Join(withheld, " "), strings.Join(keys, ", "), filepath.Base(source))
}
