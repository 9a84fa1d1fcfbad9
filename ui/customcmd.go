package ui

import (
	"fmt"
	"strings"

	"github.com/seed-e4e525a6/baton/ui/input"
	"github.com/seed-e4e525a6/baton/ui/status"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// BuiltinCommand reports whether name is one of the TUI's own commands,
// which win over a custom command of the same name.
func BuiltinCommand(name string) bool { return builtin(name) }

// builtin reports whether name is one of baton's own commands, which win
// over a custom command of the same name.
func builtin(name string) bool {
	for _, c := range commands {
		if c.name == name {
			return true
		}
	}
	return false
}

// cleanCommands cleans what the files say once, where they enter the UI.
func cleanCommands(cmds []agenttypes.Command) []agenttypes.Command {
	out := make([]agenttypes.Command, len(cmds))
	for i, c := range cmds {
		c.Description, c.ArgumentHint = termtext.Clean(c.Description), termtext.Clean(c.ArgumentHint)
		c.Agent, c.Model = termtext.Clean(c.Agent), termtext.Clean(c.Model)
		out[i] = c
	}
	return out
}

// customCommand finds the custom command a line names; built-ins hide
// custom commands of their name.
func (m *Model) customCommand(name string) (agenttypes.Command, bool) {
	if builtin(name) {
		return agenttypes.Command{}, false
	}
	return agenttypes.FindCommand(m.opts.Commands, name)
}

// runCustom sends a custom command's prompt, filled with arg, as if it
// had been typed: it runs under the same approvals. A sub-task command
// asks the main agent to delegate it, so the delegation card decides.
func (m *Model) runCustom(c agenttypes.Command, arg string) tea.Cmd {
	prompt, note := c.Prompt(arg, m.opts.Types)
	if !c.Subtask && c.Model != "" {
		note = fmt.Sprintf("/%s names model %s; this conversation stays on %s (/model switches)", c.Name, c.Model, m.model)
	}
	if m.busy {
		m.input.Enqueue(prompt)
		m.status.SetTransient(status.Info, "/"+c.Name+" queued; it is sent when the turn ends", status.Turn, "")
		return nil
	}
	if note != "" {
		m.status.Set(status.Info, note)
	}
	m.conv.toBottom()
	return m.submit(prompt)
}

// customHelp lists the custom commands for /help, saying which a
// built-in hides.
func (m *Model) customHelp(b *strings.Builder) {
	if len(m.opts.Commands) == 0 {
		return
	}
	b.WriteString("\nCustom commands (from command folders; built-in commands win a name they share):\n")
	for _, c := range m.opts.Commands {
		name := strings.TrimSpace(c.Name + " " + c.ArgumentHint)
		if builtin(c.Name) {
			fmt.Fprintf(b, "  /%-34s hidden by the built-in /%s (%s)\n", name, c.Name, displayPath(c.Source))
			continue
		}
		fmt.Fprintf(b, "  /%-34s %s\n", name, c.Description)
	}
}

// customCompletions are the custom commands whose names start with what
// was typed after "/", built-ins' names left out.
func customCompletions(value string, cmds []agenttypes.Command) []input.Candidate {
	var out []input.Candidate
	for _, c := range cmds {
		if builtin(c.Name) || !strings.HasPrefix("/"+c.Name, value) {
			continue
		}
		takesArgs := c.ArgumentHint != "" || strings.Contains(c.Template, "$")
		text := "/" + c.Name
		if takesArgs {
			text += " "
		}
		label := strings.TrimSpace("/" + c.Name + " " + c.ArgumentHint)
		out = append(out, input.Candidate{Label: label, Text: text, Desc: c.Description, Complete: !takesArgs})
	}
	return out
}
