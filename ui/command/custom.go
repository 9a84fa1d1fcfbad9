package command

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/ui/input"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// Custom commands come from command folders (agenttypes.Command): each
// is a prompt template sent as if typed, so it runs under the same
// approvals; one marked as a sub-task asks the main agent to delegate it.

// cleanCustom cleans what the files say once, where they enter the UI.
func cleanCustom(cmds []agenttypes.Command) []agenttypes.Command {
	out := make([]agenttypes.Command, len(cmds))
	for i, c := range cmds {
		c.Description, c.ArgumentHint = termtext.Clean(c.Description), termtext.Clean(c.ArgumentHint)
		c.Agent, c.Model = termtext.Clean(c.Agent), termtext.Clean(c.Model)
		out[i] = c
	}
	return out
}

// runCustom sends a custom command's prompt, filled with arg, as if it
// had been typed. A sub-task command asks the main agent to delegate it,
// so the delegation card decides.
func runCustom(env *Env, c agenttypes.Command, arg string) tea.Cmd {
	prompt, note := c.Prompt(arg, env.Options.Types)
	if !c.Subtask && c.Model != "" {
		note = fmt.Sprintf("/%s names model %s; this conversation stays on %s (/model switches)", c.Name, c.Model, env.Model)
	}
	return Do(Result{Submit: prompt, Queued: "/" + c.Name, Say: note})
}

// customHelp lists the custom commands for /help, saying which a
// built-in hides.
func customHelp(b *strings.Builder, cmds []agenttypes.Command) {
	if len(cmds) == 0 {
		return
	}
	b.WriteString("\nCustom commands (from command folders; built-in commands win a name they share):\n")
	for _, c := range cmds {
		name := strings.TrimSpace(c.Name + " " + c.ArgumentHint)
		if _, hidden := builtins()[c.Name]; hidden {
			fmt.Fprintf(b, "  /%-34s hidden by the built-in /%s (%s)\n", name, c.Name, termtext.Path(c.Source))
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
		if _, hidden := builtins()[c.Name]; hidden || !strings.HasPrefix("/"+c.Name, value) {
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
