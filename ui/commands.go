package ui

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/seed-e4e525a6/baton/ui/status"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/themes"

	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// command describes one slash command for help and completion.
type command struct{ name, args, desc string }

// commands are the slash commands, in the order help and completion list
// them; runCommand says what each does.
var commands = []command{
	{"help", "", "show keys and commands"},
	{"clear", "", "start a new conversation"},
	{"model", "NAME", "switch the model (alone: pick from the endpoint's list)"},
	{"theme", "NAME", "switch the colour theme"},
	{"subagents", "list|stop|log|info|send|diff", "list, stop, read or message sub-agents; review a worktree change"},
	{"agents", "", "list the sub-agent types"},
	{"permissions", "list|allow|ask|deny|remove|save", "list, add or remove permission rules; save keeps them"},
	{"init", "", "ask the model to write AGENTS.md for this project"},
	{"quit", "", "leave baton"},
	{"mcp", "", "show the MCP servers: state, tools, errors"},
	{"skills", "", "list the skills: source, whether loaded, broken ones"},
	{"hooks", "", "list the hooks: event, command, source, what each did last"},
	{"compact", "[FOCUS]", "replace the conversation with a summary (keeping FOCUS)"},
	{"copy", "[code]", "copy the last answer, or its last code block, to the clipboard"},
}

// runCommand runs a line that starts with "/".
func (m *Model) runCommand(line string) tea.Cmd {
	name, arg, _ := strings.Cut(strings.TrimPrefix(line, "/"), " ")
	arg = strings.TrimSpace(arg)
	m.status.CommandRan()
	switch name {
	case "help":
		m.cmdHelp()
		return nil
	case "clear":
		return m.cmdClear()
	case "compact":
		return m.cmdCompact(arg)
	case "copy":
		return m.cmdCopy(arg)
	case "model":
		return m.cmdModel(arg)
	case "theme":
		return m.cmdTheme(arg)
	case "subagents":
		return m.cmdSubagents(arg)
	case "agents":
		m.cmdAgents()
		return nil
	case "permissions":
		return m.cmdPermissions(arg)
	case "init":
		return m.cmdInit()
	case "mcp":
		return m.cmdMCP()
	case "skills":
		return m.cmdSkills()
	case "hooks":
		return m.cmdHooks()
	case "quit":
		return m.quitOrAsk()
	}
	if c, ok := m.customCommand(name); ok {
		return m.runCustom(c, arg)
	}
	m.status.Set(status.Error, fmt.Sprintf("unknown command /%s; /help lists the commands", termtext.Clean(name)))
	return nil
}

// keyPlaces says where each group of keys applies, in /help's headings.
var keyPlaces = map[string]string{
	"input": "in the input", "conversation": "in the conversation", "card": "on a card",
	"pane": "on a sub-agent's pane (tab to reach it)", "transcript": "in a transcript (enter on a pane)", "anywhere": "anywhere",
}

// writeSandboxInfo says what the main agent's and the sub-agents'
// commands run under.
func (m *Model) writeSandboxInfo(b *strings.Builder) {
	if m.opts.SandboxInfo != "" {
		fmt.Fprintf(b, "Commands run in sandbox: %s\n", termtext.Clean(m.opts.SandboxInfo))
	}
	if m.opts.SubagentSandboxInfo != "" {
		fmt.Fprintf(b, "Sub-agents' commands run in sandbox: %s\n", termtext.Clean(m.opts.SubagentSandboxInfo))
	}
}

// cmdHelp writes the commands, keys and themes into the conversation.
func (m *Model) cmdHelp() {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", strings.TrimSpace("baton "+m.opts.Version))
	m.writeSandboxInfo(&b)
	b.WriteString("\nCommands:\n")
	width := 0
	for _, c := range commands {
		width = max(width, len(strings.TrimSpace(c.name+" "+c.args)))
	}
	for _, c := range commands {
		fmt.Fprintf(&b, "  /%-*s  %s\n", width, strings.TrimSpace(c.name+" "+c.args), c.desc)
	}
	m.customHelp(&b)
	b.WriteString("\n")
	for _, group := range m.allKeys() {
		keys := make([]string, len(group.Keys))
		for i, k := range group.Keys {
			keys[i] = k.Help().Key + " " + k.Help().Desc
		}
		fmt.Fprintf(&b, "Keys %s: %s\n", keyPlaces[group.Where], strings.Join(keys, " · "))
	}
	fmt.Fprintf(&b, "\nThemes: %s", strings.Join(themes.Names(), ", "))
	m.conv.add(&note{kind: noteInfo, text: b.String()})
	m.conv.toBottom()
}

// cmdClear starts a new conversation; the session refuses while a turn
// runs, so the UI does too.
func (m *Model) cmdClear() tea.Cmd {
	if m.busy {
		m.status.Set(status.Error, "clear: a turn is running; esc interrupts it first")
		return nil
	}
	return m.clearSession()
}

// cmdModel shows or switches the model.
func (m *Model) cmdModel(arg string) tea.Cmd {
	if arg == "" {
		m.openModelPicker()
		return nil
	}
	if strings.ContainsFunc(arg, unicode.IsSpace) || strings.HasPrefix(arg, "/") {
		m.status.Set(status.Error, fmt.Sprintf("model: %q is not a model name; /model NAME switches", termtext.Clean(arg)))
		return nil
	}
	cmd := m.setModel(arg)
	m.warnUnserved(arg)
	return cmd
}

// cmdTheme switches the theme by name.
func (m *Model) cmdTheme(arg string) tea.Cmd {
	p, ok := themes.ByName(arg)
	if !ok {
		m.status.Set(status.Error, fmt.Sprintf("unknown theme %q; themes: %s", termtext.Clean(arg), strings.Join(themes.Names(), ", ")))
		return nil
	}
	m.applyTheme(p)
	m.status.Set(status.Info, "theme: "+p.Name)
	return nil
}
