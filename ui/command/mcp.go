package command

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// mcpCommand is /mcp.
func mcpCommand() Command {
	return Command{Name: "mcp", Desc: "show the MCP servers: state, tools, errors", Run: mcpServers}
}

// mcpServers shows the status of every MCP server. The snapshot is taken
// in a Cmd, so Update never calls into the session.
func mcpServers(env *Env, _ string) tea.Cmd {
	s := env.Session
	return func() tea.Msg { return snapshot("MCP servers", formatMCP(s.MCPServers())) }
}

// snapshot is a listing read in a Cmd, for the conversation, cleaned
// where it enters the UI.
func snapshot(title, text string) Result {
	return Result{Note: termtext.Clean(title + "\n" + text)}
}

// formatMCP writes one block per server: name, state, where it came
// from, what it runs, and its tools or its error.
func formatMCP(servers []event.MCPServer) string {
	if len(servers) == 0 {
		return "none configured; add [mcp.servers.NAME] to your config, a .mcp.json, or pass --mcp-config FILE"
	}
	var b strings.Builder
	for i, s := range servers {
		if i > 0 {
			b.WriteString("\n")
		}
		state := string(s.State)
		switch {
		case s.State == event.MCPConnected:
			state = "connected · " + event.Plural(len(s.Tools), "tool")
		case s.Restarts > 0:
			state = fmt.Sprintf("%s · %s", s.State, event.Plural(s.Restarts, "restart"))
		}
		fmt.Fprintf(&b, "%s  %s\n  %s (from %s)\n", s.Name, state, s.Target, s.Source)
		if s.Error != "" {
			fmt.Fprintf(&b, "  %s\n", s.Error)
		}
		if len(s.Tools) > 0 {
			fmt.Fprintf(&b, "  %s\n", strings.Join(s.Tools, " "))
		}
		writeOffer(&b, s)
	}
	return strings.TrimRight(b.String(), "\n")
}

// writeOffer adds what a connected server offers besides tools: its
// prompts, resources and instructions, and what baton cut of it.
func writeOffer(b *strings.Builder, s event.MCPServer) {
	if len(s.Prompts) > 0 {
		commands := make([]string, len(s.Prompts))
		for i, p := range s.Prompts {
			commands[i] = "/" + p.Command
		}
		fmt.Fprintf(b, "  prompts: %s\n", strings.Join(commands, " "))
	}
	if s.HasResources {
		fmt.Fprintf(b, "  %s, %s (@%s:URI in a prompt attaches one)\n", event.Plural(s.Resources, "resource"), event.Plural(s.Templates, "template"), s.Name)
	}
	if s.Instructions != "" {
		fmt.Fprintf(b, "  instructions: %s, in the system prompt\n", event.Plural(len([]rune(s.Instructions)), "character"))
	}
	for _, w := range s.Warnings {
		fmt.Fprintf(b, "  note: %s\n", w)
	}
}
