package agenttypes

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Untrusted says the project folder has not been trusted by the person:
// its agent files (.baton/agents, .claude/agents, .opencode/agent(s))
// came with a repository and may only narrow what baton does. A project
// agent loads only when it defines a new name, uses read-only tools,
// allows nothing else without asking, and asks for no model of its own
// and no more steps or time than the caps;
// the others are withheld, with a warning naming the file.
type Untrusted struct {
	// MaxSteps and Timeout are the most a project agent may ask for:
	// the limits a read-only child gets from the person's configuration.
	MaxSteps int
	Timeout  time.Duration
	// Tokens and CostUSD are the person's child budget (0: none set).
	Tokens  int
	CostUSD float64
}

// refuse says why an untrusted project agent must not load, or "" when
// it only narrows (a disabled file that replaces nothing adds nothing).
// owner names the type t would shadow ("" for none).
func (u Untrusted) refuse(t Type, owner string) string {
	if t.Disabled && owner == "" {
		// Never offered nor found, it grants nothing.
		return ""
	}
	var why []string
	if owner != "" {
		why = append(why, fmt.Sprintf("it replaces %s %q", owner, t.Name))
	}
	var extra []string
	for _, name := range t.Tools {
		if !slices.Contains(harmlessTools, name) {
			extra = append(extra, name)
		}
	}
	if len(extra) > 0 {
		why = append(why, "it grants "+strings.Join(extra, ", "))
	}
	if allowed := widerRules(t.Permissions.Allow); len(allowed) > 0 {
		why = append(why, "it allows "+strings.Join(allowed, ", ")+" without asking")
	}
	if t.ACP != nil {
		why = append(why, "it runs the program "+t.ACP.CommandLine())
	}
	if len(t.Verify) > 0 {
		why = append(why, "it runs the verify command "+strings.Join(t.Verify, "; "))
	}
	if t.Model != "" && t.Model != InheritModel {
		why = append(why, fmt.Sprintf("it picks its own model %s", t.Model))
	}
	if u.MaxSteps > 0 && t.MaxSteps > u.MaxSteps {
		why = append(why, fmt.Sprintf("it asks for %d steps (your limit is %d)", t.MaxSteps, u.MaxSteps))
	}
	if u.Timeout > 0 && t.Timeout > u.Timeout {
		why = append(why, fmt.Sprintf("it asks for %s (your limit is %s)", t.Timeout, u.Timeout))
	}
	if u.Tokens > 0 && t.BudgetTokens > u.Tokens {
		why = append(why, fmt.Sprintf("it asks for %d tokens (your budget is %d)", t.BudgetTokens, u.Tokens))
	}
	if u.CostUSD > 0 && t.BudgetCostUSD > u.CostUSD {
		why = append(why, fmt.Sprintf("it asks for $%.2f (your budget is $%.2f)", t.BudgetCostUSD, u.CostUSD))
	}
	if len(why) == 0 {
		return ""
	}
	return "not loaded, this folder is not trusted: " + strings.Join(why, "; ")
}

// widerRules returns the allow rules that cover a tool beyond reading;
// ask and deny rules only narrow.
func widerRules(allow []string) []string {
	var out []string
	for _, rule := range allow {
		name, _, _ := strings.Cut(rule, "(")
		if !slices.Contains(harmlessTools, strings.TrimSpace(name)) {
			out = append(out, rule)
		}
	}
	return out
}

// owners maps the normalized names a project agent must not replace to
// who defines them: the built-ins, then the person's own agent files.
func owners() map[string]string {
	m := make(map[string]string)
	for _, name := range builtinNames() {
		m[name] = "the built-in agent"
	}
	return m
}

// Withheld returns the project agents left out because the folder is not
// trusted, so the person can be shown exactly what trusting would add.
func (r *Registry) Withheld() []Type {
	out := make([]Type, 0, len(r.withheld))
	for _, t := range r.withheld {
		out = append(out, t.clone())
	}
	return out
}
