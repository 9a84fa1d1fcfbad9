package skills

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine/rules"
)

// Bounds of the fields, as the Agent Skills format sets them.
const (
	maxNameRunes        = 64
	maxDescriptionRunes = 1024
)

// Parse reads one SKILL.md: Claude Code's frontmatter (name, description,
// allowed-tools, disable-model-invocation; other fields are ignored) and
// the body. folder is the skill folder's name, the name when the file
// gives none or one the model could not write. A file that cannot be
// used is an error that is a Warning; problems that cost only a field are
// warnings beside a usable skill.
func Parse(path, folder string, data []byte) (Skill, []agenttypes.Warning, error) {
	h, err := agenttypes.ReadHeader(path, data)
	if err != nil {
		return Skill{}, nil, err
	}
	p := parser{path: path}
	s := Skill{Name: folder, ModelInvocable: true}
	for _, f := range h.Fields {
		switch strings.ToLower(f.Key) {
		case "name":
			s.Name = p.name(f, folder)
		case "description":
			if !f.IsText {
				p.warn(f.Line, "description must be text; ignored")
				continue
			}
			s.Description = p.description(f)
		case "allowed-tools", "allowed_tools", "allowedtools":
			s.AllowedTools, s.Allowed, s.Dropped = p.allowed(f)
		case "disable-model-invocation", "disable_model_invocation":
			if v, ok := f.Value.(bool); ok {
				s.ModelInvocable = !v
			} else {
				p.warn(f.Line, "%s must be true or false; ignored", f.Key)
			}
		}
	}
	if problem := nameProblem(s.Name); problem != "" {
		return Skill{}, p.warnings, agenttypes.Warning{File: path, Line: 1,
			Message: fmt.Sprintf("skipped: name %q %s; set name: to letters, digits, '-' and '_'", s.Name, problem)}
	}
	body := strings.TrimSpace(h.Body)
	if body == "" {
		return Skill{}, p.warnings, agenttypes.Warning{File: path, Line: h.BodyLine, Message: "skipped: the skill has no instructions after its frontmatter"}
	}
	if s.Description == "" {
		s.Description = firstLine(body)
		p.warn(1, "no description: using the first line of the instructions; add a description: line saying when to use the skill")
	}
	return s, p.warnings, nil
}

// parser collects the warnings of one file.
type parser struct {
	path     string
	warnings []agenttypes.Warning
}

func (p *parser) warn(line int, format string, args ...any) {
	p.warnings = append(p.warnings, agenttypes.Warning{File: p.path, Line: line, Message: fmt.Sprintf(format, args...)})
}

// name reads name:, keeping the folder's name when the file's cannot be
// written in a tool call ("My First Skill").
func (p *parser) name(f agenttypes.HeaderField, folder string) string {
	name := strings.TrimSpace(f.Text)
	if !f.IsText || name == "" {
		return folder
	}
	if problem := nameProblem(name); problem != "" && nameProblem(folder) == "" {
		p.warn(f.Line, "name %q %s, so the skill is named %q after its folder", name, problem, folder)
		return folder
	}
	return name
}

// description reads description:, on one line and bounded.
func (p *parser) description(f agenttypes.HeaderField) string {
	d := strings.Join(strings.Fields(f.Text), " ")
	if utf8.RuneCountInString(d) > maxDescriptionRunes {
		p.warn(f.Line, "description is longer than %d characters; cut there", maxDescriptionRunes)
		d = string([]rune(d)[:maxDescriptionRunes]) + "…"
	}
	return d
}

// allowed reads allowed-tools: Claude Code writes it as one string of
// names separated by spaces or commas ("Read Grep Bash(git diff *)") or
// as a list. Each entry becomes a baton rule; an entry naming a tool
// baton lacks is kept aside, and one that cannot be read is a warning.
func (p *parser) allowed(f agenttypes.HeaderField) (written []string, list []rules.Rule, dropped []string) {
	var entries []string
	switch v := f.Value.(type) {
	case string:
		entries = splitTools(v)
	case []any:
		for _, e := range v {
			if s, ok := e.(string); ok {
				entries = append(entries, splitTools(s)...)
			} else {
				p.warn(f.Line, "%s: ignored an entry that is not text", f.Key)
			}
		}
	case nil:
	default:
		p.warn(f.Line, "%s must be text or a list of tool names; ignored", f.Key)
		return nil, nil, nil
	}
	list = []rules.Rule{}
	for _, e := range entries {
		written = append(written, e)
		text, err := rules.FromClaude(e, "")
		if err != nil {
			if name, _, _ := strings.Cut(e, "("); isToolName(name) {
				dropped = append(dropped, e)
				continue
			}
			p.warn(f.Line, "%s: ignored %q: %v", f.Key, e, err)
			continue
		}
		r, err := rules.Parse(text)
		if err != nil {
			p.warn(f.Line, "%s: ignored %q: %v", f.Key, e, err)
			continue
		}
		list = append(list, r)
	}
	return written, list, dropped
}

// isToolName reports whether s looks like a tool's name, so an entry
// baton has no tool for is told apart from one it cannot read.
func isToolName(s string) bool {
	return s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '-'
	}) < 0
}

// splitTools splits an allowed-tools string at spaces and commas outside
// parentheses, so "Bash(git diff *)" stays one entry.
func splitTools(s string) []string {
	var (
		out   []string
		depth int
		cur   strings.Builder
	)
	flush := func() {
		if t := strings.TrimSpace(cur.String()); t != "" {
			out = append(out, t)
		}
		cur.Reset()
	}
	for _, r := range s {
		switch {
		case r == '(':
			depth++
		case r == ')':
			depth = max(depth-1, 0)
		case depth == 0 && (r == ',' || unicode.IsSpace(r)):
			flush()
			continue
		}
		cur.WriteRune(r)
	}
	flush()
	return out
}

// nameProblem says why name cannot be passed to the skill tool, or "".
func nameProblem(name string) string {
	if utf8.RuneCountInString(name) > maxNameRunes {
		return fmt.Sprintf("is longer than %d characters", maxNameRunes)
	}
	letters := 0
	for _, r := range name {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			letters++
		case r != '-' && r != '_' && r != '.' && r != ':':
			return "has characters other than letters, digits, '-', '_', '.' and ':'"
		}
	}
	if letters == 0 {
		return "has no letters or digits"
	}
	return ""
}

// firstLine is the first non-blank line of the body, without heading
// marks, cut to a line's length.
func firstLine(body string) string {
	for _, line := range strings.Split(body, "\n") {
		if line = strings.TrimSpace(strings.TrimLeft(line, "# \t")); line != "" {
			if r := []rune(line); len(r) > 200 {
				line = string(r[:200]) + "…"
			}
			return line
		}
	}
	return ""
}
