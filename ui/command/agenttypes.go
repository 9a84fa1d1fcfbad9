package command

import (
	"fmt"
	"strings"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// AgentTypes is /agents: every sub-agent type, where it comes from, its
// tools, model and limits, and what is wrong with it; then the warnings
// of loading the agent files. modelOf, when set, says which model a
// type's children run on and why. The text is cleaned.
func AgentTypes(types []agenttypes.Type, warnings []string, modelOf func(agenttypes.Type) (string, string)) string {
	var b strings.Builder
	if len(types) == 0 {
		b.WriteString("No sub-agent types are loaded.")
	} else {
		b.WriteString("Sub-agent types:")
	}
	for _, t := range types {
		b.WriteString("\n\n" + typeText(t, modelOf))
	}
	if len(warnings) > 0 {
		b.WriteString("\n\nWarnings from the agent files:")
		for _, w := range warnings {
			b.WriteString("\n  ⚠ " + w)
		}
	}
	return termtext.Clean(b.String())
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
	if note := agenttypes.WithheldNote(t.WithheldTools, t.Source); note != "" {
		lines = append(lines, "  "+note)
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
