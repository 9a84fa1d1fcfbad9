package engine

import (
	"fmt"
	"strings"
	"time"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/skills"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// childSkills are a child's skills: those it may load, and those its
// agent file named, loaded from its start.
type childSkills struct {
	offered, preload []skills.Skill
}

// skillsFor decides a child's skills. An agent file's skills: (Claude
// Code's field) gives it exactly those, their instructions in its system
// prompt from the start; otherwise it is offered the skills its tools
// can use. The skill tool joins its tools when there is one to load, and
// the listing its system prompt.
func (d *delegator) skillsFor(typ agenttypes.Type, set *tools.Set, system string) (childSkills, *tools.Set, string) {
	catalog := d.s.cfg.Skills
	var cs childSkills
	if typ.Skills == nil {
		cs.offered = catalog.ForTools(set.Names())
	} else {
		found, missing := catalog.Named(typ.Skills)
		if len(missing) > 0 {
			d.s.send(event.Notice{Meta: event.Meta{Agent: event.MainAgent, Time: time.Now()},
				Text: fmt.Sprintf("agent type %s names skills baton did not find: %s (/skills lists them)", typ.Name, strings.Join(missing, ", "))})
		}
		for _, sk := range found {
			body, err := sk.Body()
			if err != nil {
				d.s.send(event.Notice{Meta: event.Meta{Agent: event.MainAgent, Time: time.Now()}, Text: err.Error()})
				continue
			}
			cs.preload = append(cs.preload, sk)
			system += fmt.Sprintf("\n\n# Skill %s (loaded)\n\n%s", sk.Name, skillText(sk, body, ""))
		}
		cs.offered = cs.preload
	}
	if len(cs.offered) > 0 {
		set = set.With(skillTool{})
		if typ.Skills == nil {
			system += "\n\n" + skills.Listing(cs.offered)
		}
	}
	return cs, set, system
}
