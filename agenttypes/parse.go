package agenttypes

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// ParseFile reads one agent file: YAML frontmatter for the fields and the
// Markdown body for the system prompt; tool names are checked against
// BaseTools. A file that cannot be used returns an error that is a
// Warning naming the line and the reason. Problems that only cost a
// field come back as warnings beside a usable Type.
func ParseFile(path string, data []byte) (Type, []Warning, error) {
	return parseFile(path, data, fileOptions{known: newToolSet(AllTools)})
}

// fileOptions say how to read one file: which tools exist, the name a
// file without one gets, and whether it is read as OpenCode reads its own.
type fileOptions struct {
	known toolSet
	// name is the default name; "" means the file's base name.
	name string
	// openCode files need neither frontmatter nor a description.
	openCode bool
}

// fileParser carries what the field handlers share while one file is read.
type fileParser struct {
	path     string
	known    toolSet
	opts     fileOptions
	body     string
	warnings []Warning
	// listed is set when tools is a list, which names every tool the
	// agent gets; off holds the tools a tools map switched off.
	listed bool
	off    map[string]bool
}

// entry is one field of the frontmatter.
type entry struct {
	key   string     // as written ("maxTurns")
	norm  string     // normalized ("maxturns")
	value *yaml.Node // nil when the field is absent
	line  int        // file line of the key
}

// field is a frontmatter field baton understands; always fields run even
// when absent, because absence has a meaning (file name, default tools).
type field struct {
	name   string
	always bool
	apply  func(p *fileParser, t *Type, e entry) error
}

// fields run in this order: disallowedTools must see the tools list.
var fields = []field{
	{"name", true, applyName},
	{"description", true, applyDescription},
	{"tools", true, applyTools},
	{"disallowedTools", false, applyDisallowed},
	{"model", false, applyModel},
	{"color", false, applyColor},
	{"steps", false, applySteps},
	{"timeout", false, applyTimeout},
	{"capabilities", false, applyCapabilities},
	{"effort", false, applyEffort},
	{"mode", false, applyMode},
	{"hidden", false, applyHidden},
	{"disable", false, applyDisable},
	{"temperature", false, applySampling},
	{"topP", false, applySampling},
	{"permission", false, applyPermission},
	{"sandbox", false, applySandbox},
	{"isolation", false, applyIsolation},
	{"runner", false, applyRunner},
	{"acp", false, applyACP},
	{"skills", false, applySkills},
	{"verify", false, applyVerify},
	{"budget", false, applyBudget},
}

// fieldAliases maps a normalized field name to the field it sets; Claude
// Code, OpenCode and Gemini spellings share one field.
var fieldAliases = map[string]string{
	"name": "name", "description": "description", "tools": "tools",
	"disallowedtools": "disallowedTools", "model": "model", "color": "color",
	"maxsteps": "steps", "maxturns": "steps", "steps": "steps",
	"timeouts": "timeout", "timeoutmins": "timeout",
	"capabilities": "capabilities", "effort": "effort",
	"mode": "mode", "hidden": "hidden", "disable": "disable",
	"temperature": "temperature", "topp": "topP", "permission": "permission", "sandbox": "sandbox",
	"isolation": "isolation", "runner": "runner", "acp": "acp", "skills": "skills", "verify": "verify",
	"budget": "budget",
	// OpenCode passes reasoningEffort to the provider as the effort.
	"reasoningeffort": "effort",
}

func parseFile(path string, data []byte, opts fileOptions) (Type, []Warning, error) {
	fm, err := readFrontmatter(path, data)
	if err != nil && opts.openCode && !hasFrontmatter(data) {
		// OpenCode reads a file without a header as a prompt alone.
		fm, err = frontmatter{body: string(data), bodyLine: 1}, nil
	}
	if err != nil {
		return Type{}, nil, err
	}
	return parseFields(path, fm, opts)
}

// parseFields builds a type from its fields and its prompt, whether they
// come from a file's frontmatter and body or from an agent block of an
// opencode.json.
func parseFields(path string, fm frontmatter, opts fileOptions) (Type, []Warning, error) {
	p := &fileParser{path: path, known: opts.known, opts: opts, body: fm.body}
	t := Type{Model: InheritModel, Source: path}
	set := p.collect(fm.fields, &t)
	for _, f := range fields {
		e, ok := set[f.name]
		if !ok && !f.always {
			continue
		}
		if !ok {
			e = entry{key: f.name, line: 1}
		}
		if err := f.apply(p, &t, e); err != nil {
			return Type{}, p.warnings, err
		}
	}
	if err := settleRunner(p, &t); err != nil {
		return Type{}, p.warnings, err
	}
	p.withheldDefaults(&t)
	t.DisplayName = displayName(t.Name)
	t.SystemPrompt = strings.TrimSpace(fm.body)
	if t.SystemPrompt == "" {
		p.warn(fm.bodyLine, "%s, so the agent has no system prompt", emptyBody)
	}
	return t, p.warnings, nil
}

// collect sorts the frontmatter's fields into the known ones, by field
// name, and the rest, kept in t.Extra. A field given twice keeps its
// last value, with a warning.
func (p *fileParser) collect(m *yaml.Node, t *Type) map[string]entry {
	set := make(map[string]entry)
	seen := make(map[string]int) // field or extra key → line
	for i := 0; m != nil && i+1 < len(m.Content); i += 2 {
		k := deref(m.Content[i])
		key, ok := scalar(k)
		if !ok || strings.TrimSpace(key) == "" {
			p.warn(lineOf(k), "ignored a field without a name")
			continue
		}
		e := entry{key: key, norm: Normalize(key), value: m.Content[i+1], line: lineOf(k)}
		name, known := fieldAliases[e.norm]
		id := "extra " + key
		if known {
			id = name
		}
		if prev, dup := seen[id]; dup {
			p.warn(e.line, "%s repeats a field set on line %d; the last one counts", key, prev)
		}
		seen[id] = e.line
		if known {
			set[name] = e
			continue
		}
		var v any
		if err := e.value.Decode(&v); err != nil {
			p.warn(e.line, "ignored field %s: %v", key, err)
			continue
		}
		if t.Extra == nil {
			t.Extra = make(map[string]any)
		}
		t.Extra[key] = v
	}
	return set
}

// emptyBody begins the warning about a file without a prompt.
const emptyBody = "the body is empty"

func (p *fileParser) warn(line int, format string, args ...any) {
	p.warnings = append(p.warnings, Warning{File: p.path, Line: line, Message: fmt.Sprintf(format, args...)})
}

// skip returns the error that makes Load leave the file out.
func (p *fileParser) skip(line int, format string, args ...any) error {
	return Warning{File: p.path, Line: line, Message: "skipped: " + fmt.Sprintf(format, args...)}
}

func applyDescription(p *fileParser, t *Type, e entry) error {
	d, ok := scalar(e.value)
	if !ok {
		return p.skip(e.line, "description must be text")
	}
	if t.Description = strings.TrimSpace(d); t.Description == "" && p.opts.openCode {
		// OpenCode offers such an agent anyway; its opening line is the
		// best account of it there is.
		t.Description = firstLine(p.body)
		p.warn(e.line, "no description: using the first line of the prompt; add a description: line saying when to use this agent")
	}
	if t.Description == "" {
		return p.skip(e.line, "no description: add a description: line saying when the main agent should use this agent")
	}
	return nil
}
