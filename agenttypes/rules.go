package agenttypes

import "slices"

// Rules are standing permission rules in Claude Code's syntax: a tool name
// ("edit_file") or a tool with an argument pattern ("run_command(git
// diff:*)", "edit_file(docs/**)"). Deny beats ask, and ask beats allow,
// among patterns and among bare names; in an agent's own rules a pattern
// is decided before a bare tool name, which is the fallback for the calls
// no pattern names (OpenCode's "*").
type Rules struct {
	Allow []string
	Ask   []string
	Deny  []string
}

// IsZero reports whether no rule is set.
func (r Rules) IsZero() bool {
	return len(r.Allow) == 0 && len(r.Ask) == 0 && len(r.Deny) == 0
}

// clone copies the lists so a registry's types cannot be changed through
// the values it hands out.
func (r Rules) clone() Rules {
	return Rules{Allow: slices.Clone(r.Allow), Ask: slices.Clone(r.Ask), Deny: slices.Clone(r.Deny)}
}
