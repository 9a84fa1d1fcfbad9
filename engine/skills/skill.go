// Package skills reads skills: folders holding a SKILL.md (Claude Code's
// format, which OpenCode and others read too) whose frontmatter names and
// describes the skill and whose body is the instructions the model loads
// when a task matches. The engine lists them in the system prompt and
// loads one through its skill tool; this package finds, parses and bounds
// them, and never fails: a skill it cannot use is a problem named with
// its file, and the others still load.
package skills

import (
	"slices"
	"strings"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine/rules"
)

// Skill is one skill folder.
type Skill struct {
	// Name is what the model passes to the skill tool: the frontmatter's
	// name, else the folder's.
	Name string
	// Description says what the skill is for and when to use it.
	Description string
	// AllowedTools is the frontmatter's allowed-tools as written (Claude
	// Code's names); Allowed is it as baton's rules. While the skill is
	// active, only calls Allowed covers run without asking; it narrows
	// what the person's rules allow and never widens it. Dropped are the
	// entries naming tools baton lacks, which allow nothing.
	AllowedTools []string
	Allowed      []rules.Rule
	Dropped      []string
	// ModelInvocable is false for a skill whose file says
	// disable-model-invocation: it is listed for the person, not offered
	// to the model.
	ModelInvocable bool
	// Dir is the folder (symlinks resolved) that becomes readable to the
	// file tools once the skill is loaded; "" when it may not (the root or
	// a home folder). File is its SKILL.md.
	Dir  string
	File string
	// Source says where it was found (".claude/skills", "~/.claude/skills"),
	// and Project whether the folder travels with the repository.
	Source  string
	Project bool
	// root is the folder File must resolve inside when read again: the
	// workspace for a project skill, "" for the person's own.
	root string
}

// Catalog is every skill found, by name, with what went wrong.
type Catalog struct {
	skills []Skill
	// broken are the skills that could not be used, warnings the fields
	// and folders that were ignored; each names its file.
	broken, warnings []agenttypes.Warning
	// hidden are skills a skill of the same name in a folder of higher
	// precedence hides, for /skills.
	hidden []Skill
}

// add keeps s, replacing (and remembering) a skill of the same name.
func (c *Catalog) add(s Skill) {
	if i := slices.IndexFunc(c.skills, func(o Skill) bool { return o.Name == s.Name }); i >= 0 {
		c.hidden = append(c.hidden, c.skills[i])
		c.skills[i] = s
		return
	}
	c.skills = append(c.skills, s)
	slices.SortFunc(c.skills, func(a, b Skill) int { return strings.Compare(a.Name, b.Name) })
}

// All returns every skill, sorted by name; nil-safe.
func (c *Catalog) All() []Skill {
	if c == nil {
		return nil
	}
	return slices.Clone(c.skills)
}

// Broken are the skills that could not be used, each naming its file
// and why.
func (c *Catalog) Broken() []agenttypes.Warning {
	if c == nil {
		return nil
	}
	return slices.Clone(c.broken)
}

// Warnings are what was ignored in skills that loaded, and folders that
// could not be read.
func (c *Catalog) Warnings() []agenttypes.Warning {
	if c == nil {
		return nil
	}
	return slices.Clone(c.warnings)
}

// Hidden are the skills another of the same name replaced.
func (c *Catalog) Hidden() []Skill {
	if c == nil {
		return nil
	}
	return slices.Clone(c.hidden)
}

// Lookup finds a skill by name, ignoring case.
func (c *Catalog) Lookup(name string) (Skill, bool) {
	if c == nil {
		return Skill{}, false
	}
	name = strings.TrimSpace(name)
	for _, s := range c.skills {
		if strings.EqualFold(s.Name, name) {
			return s, true
		}
	}
	return Skill{}, false
}

// Offered are the skills the model may load: all but those whose file
// turned model invocation off.
func (c *Catalog) Offered() []Skill {
	var out []Skill
	for _, s := range c.All() {
		if s.ModelInvocable {
			out = append(out, s)
		}
	}
	return out
}

// ForTools are the offered skills an agent with the given tools can use:
// those whose allowed-tools name only tools it has (a skill without
// allowed-tools fits every agent).
func (c *Catalog) ForTools(tools []string) []Skill {
	var out []Skill
	for _, s := range c.Offered() {
		if s.fits(tools) {
			out = append(out, s)
		}
	}
	return out
}

// fits reports whether every tool s's allowed-tools names is in tools.
func (s Skill) fits(tools []string) bool {
	for _, r := range s.Allowed {
		if r.AnyTool {
			if !slices.ContainsFunc(tools, func(t string) bool { return strings.HasPrefix(t, r.Tool) }) {
				return false
			}
			continue
		}
		if !slices.Contains(tools, r.Tool) {
			return false
		}
	}
	return true
}

// Named returns the skills of names that exist, in the order given, and
// the names that do not.
func (c *Catalog) Named(names []string) (found []Skill, missing []string) {
	for _, n := range names {
		if s, ok := c.Lookup(n); ok {
			found = append(found, s)
		} else {
			missing = append(missing, n)
		}
	}
	return found, missing
}
