package command

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// skillsCommand is /skills.
func skillsCommand() Command {
	return Command{Name: "skills", Desc: "list the skills: source, whether loaded, broken ones", Run: skills}
}

// skills lists the skills: each with its source, whether the model is
// offered it and how often it was loaded, then the broken and hidden
// ones. The snapshot is taken in a Cmd.
func skills(env *Env, _ string) tea.Cmd {
	s := env.Session
	return func() tea.Msg { return snapshot("Skills", formatSkills(s.SkillStatus())) }
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
			state += fmt.Sprintf(" · loaded %s", event.Plural(s.Loads, "time"))
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
