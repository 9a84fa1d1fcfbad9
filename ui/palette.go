package ui

import (
	"slices"
	"strings"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/themes"
	"github.com/seed-e4e525a6/baton/ui/input"
)

// commandPalette is the command palette the prompt box offers: baton's
// own commands, the /subagents commands with the children they act on,
// theme names, the custom commands and the MCP servers' prompts (read
// from a snapshot that never blocks). It captures the agents area, never
// the model, which Bubble Tea copies.
func commandPalette(children *agents, custom []agenttypes.Command, prompts func() []event.MCPPrompt) func(string) []input.Candidate {
	return func(value string) []input.Candidate {
		return slices.Concat(completions(value, children.refs()), customCompletions(value, custom), mcpCompletions(value, prompts))
	}
}

// completions lists what the box could become: commands matching what
// was typed after "/", theme names after "/theme ", and the /subagents
// commands with the children they can act on.
func completions(value string, children []childRef) []input.Candidate {
	if !strings.HasPrefix(value, "/") || strings.Contains(value, "\n") {
		return nil
	}
	if rest, ok := strings.CutPrefix(value, "/subagents "); ok {
		return subagentCompletions(rest, children)
	}
	if rest, ok := strings.CutPrefix(value, "/theme "); ok {
		var out []input.Candidate
		for _, name := range themes.Names() {
			if strings.HasPrefix(name, strings.TrimSpace(rest)) {
				out = append(out, input.Candidate{Label: name, Text: "/theme " + name, Desc: "theme", Complete: true})
			}
		}
		return out
	}
	if strings.Contains(value, " ") {
		return nil
	}
	var out []input.Candidate
	for _, c := range commands {
		if strings.HasPrefix("/"+c.name, value) {
			text, complete := "/"+c.name, c.args == ""
			if !complete {
				text += " "
			}
			label := strings.TrimSpace("/" + c.name + " " + c.args)
			out = append(out, input.Candidate{Label: label, Text: text, Desc: c.desc, Complete: complete})
		}
	}
	return out
}
