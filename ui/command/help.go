package command

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/themes"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// helpCommand is /help.
func helpCommand() Command {
	return Command{Name: "help", Desc: "show keys and commands", Run: help}
}

// keyPlace says where a group of keys applies, in /help's headings (a
// switch, where a map would be built as the program starts).
func keyPlace(where string) string {
	switch where {
	case "input":
		return "in the input"
	case "conversation":
		return "in the conversation"
	case "card":
		return "on a card"
	case "pane":
		return "on a sub-agent's pane (tab to reach it)"
	case "transcript":
		return "in a transcript (enter on a pane)"
	case "anywhere":
		return "anywhere"
	}
	return ""
}

// writeSandboxInfo says what the main agent's and the sub-agents'
// commands run under. Finding out may start the sandbox's isolation
// probe, a process, the first time: it is called from a Cmd.
func writeSandboxInfo(b *strings.Builder, o Options) {
	if o.SandboxInfo != nil {
		if info := o.SandboxInfo(); info != "" {
			fmt.Fprintf(b, "Commands run in sandbox: %s\n", termtext.Clean(info))
		}
	}
	if o.SubagentSandboxInfo != nil {
		if info := o.SubagentSandboxInfo(); info != "" {
			fmt.Fprintf(b, "Sub-agents' commands run in sandbox: %s\n", termtext.Clean(info))
		}
	}
}

// help writes the commands, keys and themes into the conversation; what
// commands run under is found in its Cmd.
func help(env *Env, _ string) tea.Cmd {
	var rest strings.Builder
	rest.WriteString("\nCommands:\n")
	cmds := env.registry.Builtins()
	width := 0
	for _, c := range cmds {
		width = max(width, len(strings.TrimSpace(c.Name+" "+c.Args)))
	}
	for _, c := range cmds {
		fmt.Fprintf(&rest, "  /%-*s  %s\n", width, strings.TrimSpace(c.Name+" "+c.Args), c.Desc)
	}
	customHelp(&rest, env.registry.Custom())
	mcpPromptHelp(&rest, env.Options.MCPPrompts)
	rest.WriteString("\n")
	for _, group := range env.Keys() {
		keys := make([]string, len(group.Keys))
		for i, k := range group.Keys {
			keys[i] = k.Help().Key + " " + k.Help().Desc
		}
		fmt.Fprintf(&rest, "Keys %s: %s\n", keyPlace(group.Where), strings.Join(keys, " · "))
	}
	fmt.Fprintf(&rest, "\nThemes: %s", strings.Join(themes.Names(), ", "))
	o := env.Options
	return func() tea.Msg {
		var b strings.Builder
		fmt.Fprintf(&b, "%s\n", strings.TrimSpace("baton "+o.Version))
		writeSandboxInfo(&b, o)
		b.WriteString(rest.String())
		return Result{Note: b.String()}
	}
}
