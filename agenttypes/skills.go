package agenttypes

// applySkills reads Claude Code's skills: the skills a child of the type
// starts with, as a comma-separated string or a list of names.
func applySkills(p *fileParser, t *Type, e entry) error {
	list, ok := p.items(e.key, e.value)
	if !ok {
		p.warn(e.line, "%s must be a comma-separated string or a list of skill names; ignored", e.key)
		return nil
	}
	t.Skills = []string{}
	for _, it := range list {
		t.Skills = appendNew(t.Skills, it.text)
	}
	return nil
}
