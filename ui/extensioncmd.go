package ui

import (
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// cmdSkills lists the skills: each with its source, whether the model is
// offered it and how often it was loaded, then the broken and hidden
// ones. The snapshot is taken in a Cmd.
func (m *Model) cmdSkills() tea.Cmd {
	s := m.session
	return func() tea.Msg {
		return infoMsg{title: "Skills", text: formatSkills(s.SkillStatus())}
	}
}

// formatSkills writes one block per skill, problems last.
func formatSkills(list []event.SkillStatus) string {
	if len(list) == 0 {
		return "none found; put a folder with a SKILL.md in .claude/skills/, .baton/skills/ or ~/.claude/skills/"
	}
	var ok, bad []string
	for _, s := range list {
		if s.Problem != "" {
			bad = append(bad, "  "+s.Problem)
			continue
		}
		state := "offered to the model"
		if !s.Offered {
			state = "not offered to the model (disable-model-invocation)"
		}
		if s.Loads > 0 {
			state += fmt.Sprintf(" · loaded %s", plural(s.Loads, "time"))
		}
		block := fmt.Sprintf("%s  %s\n  %s (from %s)", s.Name, state, s.File, s.Source)
		if len(s.AllowedTools) > 0 {
			block += "\n  allowed-tools: " + strings.Join(s.AllowedTools, " ")
		}
		if s.Description != "" {
			block += "\n  " + s.Description
		}
		ok = append(ok, block)
	}
	text := strings.Join(ok, "\n")
	if len(bad) > 0 {
		text = strings.TrimLeft(text+"\nNot loaded:\n"+strings.Join(bad, "\n"), "\n")
	}
	return text
}

// cmdHooks lists the configured hooks with where each came from and what
// it did last. The snapshot is taken in a Cmd.
func (m *Model) cmdHooks() tea.Cmd {
	s := m.session
	return func() tea.Msg {
		return infoMsg{title: "Hooks", text: formatHooks(s.HookStatus(), time.Now())}
	}
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
		fmt.Fprintf(&b, "  last: %s · %s ago · took %s · %s\n", h.Last, now.Sub(h.LastAt).Round(time.Second), h.Took.Round(time.Millisecond), plural(h.Runs, "run"))
		if h.Output != "" {
			fmt.Fprintf(&b, "  printed: %s\n", h.Output)
		}
	}
	return strings.TrimRight(b.String(), "\n")
}
