package command

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/themes"
	"github.com/seed-e4e525a6/baton/ui/input"
	"github.com/seed-e4e525a6/baton/ui/status"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// themeCommand is /theme.
func themeCommand() Command {
	return Command{Name: "theme", Args: "NAME", Desc: "switch the colour theme", Run: theme, Complete: themeNames}
}

// theme switches the theme by name.
func theme(env *Env, arg string) tea.Cmd {
	p, ok := themes.ByName(arg)
	if !ok {
		env.Status.Set(status.Error, fmt.Sprintf("unknown theme %q; themes: %s", termtext.Clean(arg), strings.Join(themes.Names(), ", ")))
		return nil
	}
	return Do(Result{Theme: p.Name, Say: "theme: " + p.Name})
}

// themeNames completes the themes' names.
func themeNames(_ *Env, rest string) []input.Candidate {
	var out []input.Candidate
	for _, name := range themes.Names() {
		if strings.HasPrefix(name, strings.TrimSpace(rest)) {
			out = append(out, input.Candidate{Label: name, Text: "/theme " + name, Desc: "theme", Complete: true})
		}
	}
	return out
}
