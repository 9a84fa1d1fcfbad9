package ui

import (
	"fmt"
	"strings"

	"github.com/seed-e4e525a6/baton/ui/status"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// permissionsUsage is what /permissions takes.
const permissionsUsage = "/permissions [list | allow RULE | ask RULE | deny RULE | remove KIND RULE | save]"

// permissionsMsg is the outcome of a /permissions call: a listing to
// show, or what went wrong.
type permissionsMsg struct {
	said string // the status line's summary
	list []event.PermissionRule
	err  error
}

// cmdPermissions lists, adds, removes or saves standing rules. Every
// session call runs in a Cmd.
func (m *Model) cmdPermissions(arg string) tea.Cmd {
	verb, rest, _ := strings.Cut(arg, " ")
	rest = strings.TrimSpace(rest)
	s, save := m.session, m.opts.SaveRules
	listed := func(said string, err error) tea.Msg {
		if err != nil {
			return permissionsMsg{err: err}
		}
		return permissionsMsg{said: said, list: s.Rules()}
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
			m.status.Set(status.Error, "permissions save: there is no user config to write to")
			return nil
		}
		return func() tea.Msg {
			path, err := save(s.Rules())
			if err != nil {
				return permissionsMsg{err: err}
			}
			return listed("saved the user and session rules to "+path, nil)
		}
	}
	m.status.Set(status.Error, "permissions: usage "+permissionsUsage)
	return nil
}

// showPermissions writes the rules into the conversation.
func (m *Model) showPermissions(msg permissionsMsg) {
	if msg.err != nil {
		m.status.Set(status.Error, termtext.Clean(msg.err.Error()))
		return
	}
	var b strings.Builder
	b.WriteString("Permission rules (deny beats ask beats allow):\n")
	if len(msg.list) == 0 {
		b.WriteString("  none: write, edit and command calls ask each time\n")
	}
	for _, r := range msg.list {
		fmt.Fprintf(&b, "  %-5s %-40s %s\n", r.Kind, r.Rule, r.Source)
	}
	m.writeSandboxInfo(&b)
	b.WriteString(permissionsUsage)
	m.conv.add(&note{kind: noteInfo, text: termtext.Clean(b.String())})
	m.conv.toBottom()
	if msg.said != "" {
		m.status.Set(status.Info, termtext.Clean(msg.said))
	}
}
