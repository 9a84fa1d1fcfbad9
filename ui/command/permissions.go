package command

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/status"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// permissionsCommand is /permissions.
func permissionsCommand() Command {
	return Command{Name: "permissions", Args: "list|allow|ask|deny|remove|save", Desc: "list, add or remove permission rules; save keeps them", Run: permissions}
}

// permissionsUsage is what /permissions takes.
const permissionsUsage = "/permissions [list | allow RULE | ask RULE | deny RULE | remove KIND RULE | save]"

// permissions lists, adds, removes or saves standing rules, then shows
// them. Every session call runs in a Cmd.
func permissions(env *Env, arg string) tea.Cmd {
	verb, rest, _ := strings.Cut(arg, " ")
	rest = strings.TrimSpace(rest)
	s, save, o := env.Session, env.Options.SaveRules, env.Options
	listed := func(said string, err error) tea.Msg {
		if err != nil {
			return status.Said{Level: status.Error, Text: termtext.Clean(err.Error())}
		}
		return listRules(said, s.Rules(), o)
	}
	switch verb {
	case "", "list":
		return func() tea.Msg { return listed("", nil) }
	case "allow", "ask", "deny":
		if rest == "" {
			break
		}
		return func() tea.Msg {
			return listed("added "+verb+" "+rest+" for this session", s.AddRule(event.PermissionRule{Kind: verb, Rule: rest}))
		}
	case "remove":
		kind, rule, _ := strings.Cut(rest, " ")
		if rule = strings.TrimSpace(rule); rule == "" {
			break
		}
		return func() tea.Msg { return listed("removed "+kind+" "+rule+" for this session", s.RemoveRule(kind, rule)) }
	case "save":
		if save == nil {
			env.Status.Set(status.Error, "permissions save: there is no user config to write to")
			return nil
		}
		return func() tea.Msg {
			path, err := save(s.Rules())
			if err != nil {
				return listed("", err)
			}
			return listed("saved the user and session rules to "+path, nil)
		}
	}
	env.Status.Set(status.Error, "permissions: usage "+permissionsUsage)
	return nil
}

// listRules writes the rules, and what commands run under, into the
// conversation, and says what was done.
func listRules(said string, list []event.PermissionRule, o Options) Result {
	var b strings.Builder
	b.WriteString("Permission rules (deny beats ask beats allow):\n")
	if len(list) == 0 {
		b.WriteString("  none: write, edit and command calls ask each time\n")
	}
	for _, r := range list {
		fmt.Fprintf(&b, "  %-5s %-40s %s\n", r.Kind, r.Rule, r.Source)
	}
	writeSandboxInfo(&b, o)
	b.WriteString(permissionsUsage)
	return Result{Note: termtext.Clean(b.String()), Say: termtext.Clean(said)}
}
