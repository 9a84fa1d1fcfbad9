package permission

import (
	"github.com/seed-e4e525a6/baton/engine/rules"
	"github.com/seed-e4e525a6/baton/engine/tools"
	"slices"
)

// searchers are the tools that walk folders and show what they find:
// grep what files hold, list_files and find_files their names.
var searchers = []string{"grep", "list_files", "find_files"}

// Withholding is what a search or listing by one agent leaves out, as
// data, so that a child in another process leaves out the same: each
// file a scoped deny rule covers (deny read_file(.env) covers grep's
// reading of .env, and of a link to it) and, for grep, which shows what
// files hold, each an ask rule covers, since no card can ask about each
// file. The standing rules and the agent's own count.
type Withholding struct {
	Tool      string   `json:"tool"`
	Workspace string   `json:"workspace"`
	Deny      []string `json:"deny,omitempty"`
	Ask       []string `json:"ask,omitempty"`
}

// withholding is what a search or listing with tool by an agent with
// grants (nil: the main agent) leaves out.
func (p *Policy) withholding(grants *Grants, tool string) Withholding {
	w := Withholding{Tool: tool, Workspace: p.workspace}
	if !slices.Contains(searchers, tool) {
		return w
	}
	standing := p.snapshot()
	pick := func(list []rules.Rule, into *[]string) {
		for _, r := range list {
			if r.Scoped && (r.Tool == "read_file" || r.Tool == tool) {
				*into = append(*into, r.String())
			}
		}
	}
	pick(standing.Deny, &w.Deny)
	if grants != nil {
		pick(grants.own.Deny, &w.Deny)
	}
	if tool == "grep" {
		pick(standing.Ask, &w.Ask)
		if grants != nil {
			pick(grants.own.Ask, &w.Ask)
		}
	}
	return w
}

// Func is the tools.Withhold of w: nil when no rule could withhold
// anything, so ordinary searches cost nothing more.
func (w Withholding) Func() tools.Withhold {
	var set rules.Set
	for _, group := range []struct {
		kind rules.Kind
		list []string
	}{{rules.Deny, w.Deny}, {rules.Ask, w.Ask}} {
		for _, text := range group.list {
			if r, err := rules.Parse(text); err == nil {
				set.Add(group.kind, r)
			}
		}
	}
	if len(set.Deny) == 0 && len(set.Ask) == 0 {
		return nil
	}
	return func(abs string) (string, bool) {
		switch verdict, rule := set.Decide(rules.PathCall(w.Tool, abs, w.Workspace)); verdict {
		case rules.Denied:
			return "deny " + rule.String(), true
		case rules.Asked:
			return "ask " + rule.String() + " (read_file asks about it)", true
		}
		return "", false
	}
}
