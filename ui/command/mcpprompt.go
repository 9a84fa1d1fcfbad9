package command

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/input"
	"github.com/seed-e4e525a6/baton/ui/status"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// The connected MCP servers' prompts are commands too, one each:
// /mcp__SERVER__PROMPT with its arguments' words. A line naming one is
// sent as typed, and the engine fetches the prompt and sends its text,
// so the TUI and headless runs do the same.

// mcpCommandPrefix starts the slash command of every MCP server prompt.
const mcpCommandPrefix = "mcp__"

// mcpPrompts are the connected servers' prompts, cleaned where they enter
// the UI (a server writes their names and descriptions); nil without
// servers.
func mcpPrompts(source func() []event.MCPPrompt) []event.MCPPrompt {
	if source == nil {
		return nil
	}
	list := source()
	out := make([]event.MCPPrompt, len(list))
	for i, p := range list {
		p.Description = termtext.Clean(p.Description)
		args := make([]event.MCPPromptArgument, len(p.Arguments))
		for j, a := range p.Arguments {
			a.Name, a.Description = termtext.Clean(a.Name), termtext.Clean(a.Description)
			args[j] = a
		}
		p.Arguments = args
		out[i] = p
	}
	return out
}

// runMCPPrompt sends a line naming a connected server's prompt as typed.
// A name no connected server offers is an error here, before anything is
// sent.
func runMCPPrompt(env *Env, name, line string) tea.Cmd {
	known := false
	for _, p := range mcpPrompts(env.Options.MCPPrompts) {
		known = known || p.Command == name
	}
	if !known {
		env.Status.Set(status.Error, fmt.Sprintf("/%s is no prompt of a connected MCP server; /mcp shows the servers, /help their prompts", termtext.Clean(name)))
		return nil
	}
	return Do(Result{Submit: line, Queued: "/" + name})
}

// mcpPromptHelp lists the servers' prompts for /help.
func mcpPromptHelp(b *strings.Builder, source func() []event.MCPPrompt) {
	prompts := mcpPrompts(source)
	if len(prompts) == 0 {
		return
	}
	b.WriteString("\nMCP prompts (from connected servers; words fill the arguments in order):\n")
	for _, p := range prompts {
		fmt.Fprintf(b, "  %-35s %s\n", p.Usage(), p.Description)
	}
}

// mcpCompletions are the servers' prompts whose commands start with what
// was typed after "/".
func mcpCompletions(value string, source func() []event.MCPPrompt) []input.Candidate {
	var out []input.Candidate
	for _, p := range mcpPrompts(source) {
		if !strings.HasPrefix("/"+p.Command, value) {
			continue
		}
		text := "/" + p.Command
		if len(p.Arguments) > 0 {
			text += " "
		}
		out = append(out, input.Candidate{Label: p.Usage(), Text: text, Desc: p.Description, Complete: len(p.Arguments) == 0})
	}
	return out
}
