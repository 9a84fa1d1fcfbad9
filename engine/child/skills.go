package child

import (
	"fmt"
	"strings"
	"time"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/skills"
)

// SkillSpec is a child's skills: those it may load, those its agent file
// named (loaded from its start), and what its system prompt says of
// them.
type SkillSpec struct {
	Offered, Preload []skills.Skill
	Prompt           string
}

// skillsFor decides a child's skills. An agent file's skills: (Claude
// Code's field) gives it exactly those, their instructions in its system
// prompt from the start; otherwise it is offered the skills its tools
// (named tools) can use, listed in its system prompt. It gets the skill
// tool when there is one to load.
func (m *Manager) skillsFor(typ agenttypes.Type, tools []string) SkillSpec {
	var sp SkillSpec
	if typ.Skills == nil {
		sp.Offered = m.opts.Skills.ForTools(tools)
		if len(sp.Offered) > 0 {
			sp.Prompt = "\n\n" + skills.Listing(sp.Offered)
		}
		return sp
	}
	found, missing := m.opts.Skills.Named(typ.Skills)
	if len(missing) > 0 {
		m.sess.Emit(event.Notice{Meta: event.Meta{Agent: event.MainAgent, Time: time.Now()},
			Text: fmt.Sprintf("agent type %s names skills baton did not find: %s (/skills lists them)", typ.Name, strings.Join(missing, ", "))})
	}
	for _, sk := range found {
		body, err := sk.Body()
		if err != nil {
			m.sess.Emit(event.Notice{Meta: event.Meta{Agent: event.MainAgent, Time: time.Now()}, Text: err.Error()})
			continue
		}
		sp.Preload = append(sp.Preload, sk)
		sp.Prompt += fmt.Sprintf("\n\n# Skill %s (loaded)\n\n%s", sk.Name, agent.SkillText(sk, body, ""))
	}
	sp.Offered = sp.Preload
	return sp
}
