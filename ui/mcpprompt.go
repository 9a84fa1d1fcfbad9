package ui

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/input"
	"github.com/seed-e4e525a6/baton/ui/status"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// mcpCommandPrefix starts the slash command of every MCP server prompt:
// /mcp__SERVER__PROMPT.
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

// runMCPPrompt sends a line naming a connected server's prompt as typed:
// the engine fetches the prompt and sends its text, so the TUI and
// headless runs do the same. A name no connected server offers is an
// error here, before anything is sent.
func (m *Model) runMCPPrompt(name, line string) tea.Cmd {
	known := false
	for _, p := range mcpPrompts(m.opts.MCPPrompts) {
		known = known || p.Command == name
	}
	if !known {
		m.status.Set(status.Error, fmt.Sprintf("/%s is no prompt of a connected MCP server; /mcp shows the servers, /help their prompts", termtext.Clean(name)))
		return nil
	}
	if m.busy {
		m.input.Enqueue(line)
		m.status.SetTransient(status.Info, "/"+name+" queued; it is sent when the turn ends", status.Turn, "")
		return nil
	}
	m.conv.toBottom()
	return m.submit(line)
}

// mcpPromptHelp lists the servers' prompts for /help.
func (m *Model) mcpPromptHelp(b *strings.Builder) {
	prompts := mcpPrompts(m.opts.MCPPrompts)
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
	if !strings.HasPrefix(value, "/") || strings.ContainsAny(value, " \n") {
		return nil
	}
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
