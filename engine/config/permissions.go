package config

import (
	"fmt"
	"slices"
	"strings"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/rules"
)

// permissionsFile is the [permissions] table: rules in Claude Code's
// form, "run_command(go test:*)", "write_file(docs/**)", or a bare tool
// name. Deny beats ask beats allow.
type permissionsFile struct {
	Allow *ruleList `toml:"allow"`
	Ask   *ruleList `toml:"ask"`
	Deny  *ruleList `toml:"deny"`
}

// ruleList is a list of permission rules about tools baton has.
type ruleList []string

// UnmarshalTOML implements toml.Unmarshaler.
func (l *ruleList) UnmarshalTOML(v any) error {
	want := `a list of rules such as ["run_command(go test:*)", "write_file(docs/**)"]`
	items, ok := v.([]any)
	if !ok {
		return valueError{want, v}
	}
	out := make([]string, 0, len(items))
	for _, item := range items {
		s, ok := item.(string)
		if !ok {
			return valueError{want, item}
		}
		r, err := checkRule(s)
		if err != nil {
			return fmt.Errorf("%w (%s)", valueError{want, item}, err)
		}
		out = append(out, r)
	}
	*l = out
	return nil
}

// checkRule parses a rule and checks its tool exists; MCP tools
// (mcp__SERVER__TOOL, mcp__SERVER__*) are kept as written. It returns the rule in its
// canonical form.
func checkRule(s string) (string, error) {
	r, err := rules.Parse(s)
	if err != nil {
		return "", err
	}
	name := r.Tool
	if r.AnyTool {
		name += "*"
	}
	if !slices.Contains(ToolNames(), name) && !agenttypes.IsMCPTool(name) {
		return "", fmt.Errorf("unknown tool %q (valid: %s, mcp__SERVER__TOOL, mcp__SERVER__*)", name, strings.Join(ToolNames(), ", "))
	}
	return r.String(), nil
}

// permissionLayer is one file's rules and what it may add.
type permissionLayer struct {
	file   permissionsFile
	source string
	// display names the file in notices when source does not
	// ("project config" is .baton/config.toml).
	display string
	// narrowOnly keeps only deny and ask: the layer travels with a
	// repository the person has not trusted.
	narrowOnly bool
}

// collectRules merges the layers' rules, each marked with its source; a
// narrow-only layer's allow rules are left out and reported.
func collectRules(layers []permissionLayer) (out []event.PermissionRule, notices []string) {
	for _, l := range layers {
		for _, group := range []struct {
			kind rules.Kind
			list *ruleList
		}{{rules.Deny, l.file.Deny}, {rules.Ask, l.file.Ask}, {rules.Allow, l.file.Allow}} {
			if group.list == nil {
				continue
			}
			if group.kind == rules.Allow && l.narrowOnly {
				if len(*group.list) > 0 {
					name := l.source
					if l.display != "" {
						name = l.display
					}
					notices = append(notices, fmt.Sprintf("ignored %d allow rule(s) in %s: a project may only add deny and ask rules until you trust the folder", len(*group.list), name))
				}
				continue
			}
			for _, r := range *group.list {
				out = append(out, event.PermissionRule{Kind: string(group.kind), Rule: r, Source: l.source})
			}
		}
	}
	return out, notices
}

// ParseAllow validates --allow rules: tool names or scoped rules, each
// value split at commas outside parentheses, so
// "read_file,write_file(src/{a,b}/**)" is two rules. Empty entries
// ("a,,b") are skipped.
func ParseAllow(values []string) ([]string, error) {
	allow := []string{}
	for _, value := range values {
		for _, text := range splitRules(value) {
			if text = strings.TrimSpace(text); text == "" {
				continue
			}
			r, err := checkRule(text)
			if err != nil {
				return nil, fmt.Errorf("--allow: %w", err)
			}
			allow = append(allow, r)
		}
	}
	return allow, nil
}

// splitRules splits at commas that sit outside parentheses.
func splitRules(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range s {
		switch {
		case r == '(':
			depth++
		case r == ')' && depth > 0:
			depth--
		case r == ',' && depth == 0:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}
