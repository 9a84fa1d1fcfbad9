package command

import (
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// hooksCommand is /hooks.
func hooksCommand() Command {
	return Command{Name: "hooks", Desc: "list the hooks: event, command, source, what each did last", Run: hooks}
}

// hooks lists the configured hooks with where each came from and what it
// did last. The snapshot is taken in a Cmd.
func hooks(env *Env, _ string) tea.Cmd {
	s := env.Session
	return func() tea.Msg { return snapshot("Hooks", formatHooks(s.HookStatus(), time.Now())) }
}

// formatHooks writes one block per hook.
func formatHooks(list []event.HookStatus, now time.Time) string {
	if len(list) == 0 {
		return "none configured; add them to ~/.claude/settings.json, .claude/settings.json or [[hooks.PreToolUse]] in your config"
	}
	var b strings.Builder
	for i, h := range list {
		if i > 0 {
			b.WriteString("\n")
		}
		on := h.Event
		if h.Matcher != "" {
			on += " " + h.Matcher
		}
		fmt.Fprintf(&b, "%s  %s\n  from %s\n", on, h.Command, h.Source)
		if h.Runs == 0 {
			b.WriteString("  not run yet\n")
			continue
		}
		fmt.Fprintf(&b, "  last: %s · %s ago · took %s · %s\n", h.Last, now.Sub(h.LastAt).Round(time.Second), h.Took.Round(time.Millisecond), event.Plural(h.Runs, "run"))
		if h.Output != "" {
			fmt.Fprintf(&b, "  printed: %s\n", h.Output)
		}
	}
	return strings.TrimRight(b.String(), "\n")
}
