package engine

import (
	"github.com/seed-e4e525a6/baton/engine/event"
)

// countSkillLoad counts one load of a skill, for /skills.
func (s *Session) countSkillLoad(name string) {
	s.skillMu.Lock()
	defer s.skillMu.Unlock()
	if s.skillLoads == nil {
		s.skillLoads = map[string]int{}
	}
	s.skillLoads[name]++
}

// SkillStatus lists the skills found, with where each came from and how
// often it was loaded, then those another of the same name hides and
// those that could not be read (/skills).
func (s *Session) SkillStatus() []event.SkillStatus {
	s.skillMu.Lock()
	defer s.skillMu.Unlock()
	var out []event.SkillStatus
	for _, sk := range s.cfg.Skills.All() {
		out = append(out, event.SkillStatus{Name: sk.Name, Description: sk.Description, Source: sk.Source, File: sk.File,
			Offered: sk.ModelInvocable, Loads: s.skillLoads[sk.Name], AllowedTools: sk.AllowedTools})
	}
	for _, sk := range s.cfg.Skills.Hidden() {
		winner, _ := s.cfg.Skills.Lookup(sk.Name)
		out = append(out, event.SkillStatus{Name: sk.Name, Source: sk.Source, File: sk.File,
			Problem: "hidden by the skill of the same name in " + winner.Source})
	}
	for _, w := range s.cfg.Skills.Broken() {
		out = append(out, event.SkillStatus{File: w.File, Problem: "broken: " + w.String()})
	}
	return out
}
