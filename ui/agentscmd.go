package ui

import (
	"fmt"
	"strings"

	"github.com/seed-e4e525a6/baton/ui/status"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/agenttypes"

	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// initPrompt is what /init asks of the model.
const initPrompt = `Write an AGENTS.md file at the root of this project for the coding agents that will work in it.
First explore the repository (delegate parts of the exploration to sub-agents where that helps): the build files, the folder layout, the tests, and a few representative source files.
Then write AGENTS.md with: the exact commands to build, test and lint; the project layout (what each top-level folder holds); the code conventions and style you observed; and anything a newcomer would trip over.
Keep it short and factual. If an AGENTS.md already exists, improve it rather than starting over.`

// cmdInit asks the model to write AGENTS.md, like a typed prompt: sent
// now, or queued while a turn runs.
func (m *Model) cmdInit() tea.Cmd {
	if m.busy {
		m.input.Enqueue(initPrompt)
		m.status.SetTransient(status.Info, "/init queued; it is sent when the turn ends", status.Turn, "")
		return nil
	}
	m.conv.toBottom()
	return m.submit(initPrompt)
}

// cmdAgents writes every sub-agent type into the conversation: where it
// comes from, its tools, model and limits, and what is wrong with it;
// then the warnings of loading the agent files.
func (m *Model) cmdAgents() {
	var b strings.Builder
	if len(m.opts.Types) == 0 {
		b.WriteString("No sub-agent types are loaded.")
	} else {
		b.WriteString("Sub-agent types:")
	}
	for _, t := range m.opts.Types {
		b.WriteString("\n\n" + typeText(t, m.opts.ModelOf))
	}
	if len(m.opts.TypeWarnings) > 0 {
		b.WriteString("\n\nWarnings from the agent files:")
		for _, w := range m.opts.TypeWarnings {
			b.WriteString("\n  ⚠ " + w)
		}
	}
	m.conv.add(&note{kind: noteInfo, text: termtext.Clean(b.String())})
	m.conv.toBottom()
}

// typeText describes one type in a few lines; modelOf, when set, says
// which model its children run on.
func typeText(t agenttypes.Type, modelOf func(agenttypes.Type) (string, string)) string {
	name := t.DisplayName
	if name == "" {
		name = t.Name
	}
	head := fmt.Sprintf("%s (%s) · %s", name, t.Name, orDash(t.Source))
	switch {
	case t.Disabled:
		head += " · disabled"
	case t.Hidden:
		head += " · hidden"
	}
	limits := "default steps"
	if t.MaxSteps > 0 {
		limits = fmt.Sprintf("%d steps", t.MaxSteps)
	}
	if t.Timeout > 0 {
		limits += fmt.Sprintf(" · %ds", int64(t.Timeout.Seconds()))
	} else {
		limits += " · 120s default" // the engine's child timeout
	}
	model := modelText(t, modelOf)
	lines := []string{head}
	if t.Description != "" {
		lines = append(lines, "  "+t.Description)
	}
	lines = append(lines,
		"  tools   "+orDash(strings.Join(t.Tools, " ")),
		"  model   "+model+" · limits "+limits)
	if len(t.DroppedTools) > 0 {
		lines = append(lines, "  dropped "+strings.Join(t.DroppedTools, " ")+" (baton has no such tool; the agent runs without it)")
	}
	if s := samplingText(t); s != "" {
		lines = append(lines, "  sampling "+s)
	}
	for _, r := range []struct {
		label string
		rules []string
	}{{"allow", t.Permissions.Allow}, {"ask", t.Permissions.Ask}, {"deny", t.Permissions.Deny}} {
		if len(r.rules) > 0 {
			lines = append(lines, fmt.Sprintf("  %-7s %s", r.label, strings.Join(r.rules, " ")))
		}
	}
	return strings.Join(lines, "\n")
}

// modelText is the model a type names and, when its children run on
// another, which one and why.
func modelText(t agenttypes.Type, modelOf func(agenttypes.Type) (string, string)) string {
	named := t.Model
	if named == "" || named == agenttypes.InheritModel {
		named = "inherit"
	}
	if modelOf == nil {
		if named == "inherit" {
			return "inherit (the sub-agent model)"
		}
		return named
	}
	model, why := modelOf(t)
	switch {
	case named == "inherit":
		return "inherit → " + model
	case model != named:
		return named + " → " + model + " (" + why + ")"
	case why != "":
		return named + " (" + why + ")"
	}
	return named
}

// samplingText shows the temperature and top_p a type asks for.
func samplingText(t agenttypes.Type) string {
	var parts []string
	if t.Temperature != nil {
		parts = append(parts, fmt.Sprintf("temperature %g", *t.Temperature))
	}
	if t.TopP != nil {
		parts = append(parts, fmt.Sprintf("top_p %g", *t.TopP))
	}
	return strings.Join(parts, " · ")
}
