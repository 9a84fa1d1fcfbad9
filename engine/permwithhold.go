package engine

import (
	"github.com/seed-e4e525a6/baton/engine/rules"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// searchers are the tools that walk folders and show what they find:
// grep what files hold, list_files and find_files their names.
var searchers = map[string]bool{"grep": true, "list_files": true, "find_files": true}

// withhold is what a search or listing by agent a leaves out: each file a
// scoped deny rule covers (deny read_file(.env) covers grep's reading of
// .env, and of a link to it) and, for grep, which shows what files hold,
// each an ask rule covers, since no card can ask about each file. The
// standing rules and the agent's own count. Nil when no rule could
// withhold anything, so ordinary searches cost nothing more.
func (p *permissions) withhold(a *Agent, tool string) tools.Withhold {
	if !searchers[tool] {
		return nil
	}
	standing := p.snapshot()
	var set rules.Set
	pick := func(kind rules.Kind, list []rules.Rule) {
		for _, r := range list {
			if r.Scoped && (r.Tool == "read_file" || r.Tool == tool) {
				set.Add(kind, r)
			}
		}
	}
	pick(rules.Deny, standing.Deny)
	if a.rules != nil {
		pick(rules.Deny, a.rules.own.Deny)
	}
	if tool == "grep" {
		pick(rules.Ask, standing.Ask)
		if a.rules != nil {
			pick(rules.Ask, a.rules.own.Ask)
		}
	}
	if len(set.Deny) == 0 && len(set.Ask) == 0 {
		return nil
	}
	return func(abs string) (string, bool) {
		switch verdict, rule := set.Decide(rules.PathCall(tool, abs, p.workspace)); verdict {
		case rules.Denied:
			return "deny " + rule.String(), true
		case rules.Asked:
			return "ask " + rule.String() + " (read_file asks about it)", true
		}
		return "", false
	}
}
