package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"

	"github.com/seed-e4e525a6/baton/engine/rules"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// keyHelp lists the answers the card takes, in lines at most width wide;
// waiting is how many delegation cards Y would approve. Until the card is
// armed the keys are shown dimmed and without their meaning, with what
// happens meanwhile.
func (c *approvalCard) keyHelp(rc *renderCtx, keys KeyMap, waiting, width int) []string {
	st := rc.styles.Card
	d := c.delegation()
	type answer struct {
		b    key.Binding
		desc string
	}
	var items []answer
	if d != nil {
		items = []answer{{keys.Allow, "approve"}, {keys.Deny, "deny"}, {keys.AllowAlways, "always for " + d.AgentType}, {keys.Edit, "edit prompt"}}
		if waiting > 1 {
			items = append(items, answer{keys.AllowAll, fmt.Sprintf("approve all %d", waiting)})
		}
	} else {
		items = []answer{{keys.Allow, "allow once"}, {keys.Deny, "deny (reason)"}, {keys.DenyNow, "deny & stop turn"}}
		if len(c.req.Always) > 0 {
			items = append(items, answer{keys.AllowAlways, "always allow " + ruleLabels(c.req.Always)})
		}
		if len(c.req.AlwaysFolder) > 0 {
			items = append(items, answer{keys.AllowFolder, "always allow " + ruleLabels(c.req.AlwaysFolder)})
		}
	}
	if !c.armed {
		names := make([]string, len(items))
		for i, it := range items {
			names[i] = it.b.Help().Key
		}
		return []string{st.Label.Render(strings.Join(names, " ") + " · the card takes keys once typing pauses")}
	}
	sep := st.Label.Render(" · ")
	var lines []string
	line := ""
	for _, it := range items {
		part := st.Key.Render(it.b.Help().Key) + " " + st.Label.Render(termtext.Clean(it.desc))
		switch {
		case line == "":
			line = part
		case lipgloss.Width(line+sep+part) <= width:
			line += sep + part
		default:
			lines, line = append(lines, line), part
		}
	}
	return append(lines, line)
}

// ruleLabels says what rules cover in the card's words: "go test …" for
// a command prefix, the glob for files.
func ruleLabels(texts []string) string {
	labels := make([]string, 0, len(texts))
	for _, text := range texts {
		r, err := rules.Parse(text)
		switch {
		case err != nil || !r.Scoped:
			labels = append(labels, text)
		case r.Tool == rules.CommandTool && r.Prefix:
			labels = append(labels, fmt.Sprintf("%q", strings.Join(r.Words, " ")+" …"))
		case r.Tool == rules.CommandTool:
			labels = append(labels, fmt.Sprintf("%q", strings.Join(r.Words, " ")))
		default:
			labels = append(labels, r.Glob)
		}
	}
	return strings.Join(labels, ", ")
}
