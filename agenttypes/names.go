package agenttypes

import (
	"fmt"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"
)

// applyName reads name:, falling back to the name the file's path gives.
func applyName(p *fileParser, t *Type, e entry) error {
	name, ok := scalar(e.value)
	if !ok {
		return p.skip(e.line, "name must be text")
	}
	fromFile := p.opts.name
	if fromFile == "" {
		fromFile = strings.TrimSuffix(filepath.Base(p.path), filepath.Ext(p.path))
	}
	name = strings.TrimSpace(name)
	if name == "" {
		name = fromFile
	}
	if problem := nameProblem(name); problem != "" && nameProblem(fromFile) == "" {
		// Claude Code takes any text ("Code Reviewer 👀"); a name the
		// model must write in a task call cannot, so the file's name
		// stands in rather than the agent going missing.
		p.warn(e.line, "name %q %s, so the agent is named %q after its file", name, problem, fromFile)
		name = fromFile
	}
	if problem := nameProblem(name); problem != "" {
		return p.skip(e.line, "name %q %s; set a name: field with letters, digits, '-' and '_'", name, problem)
	}
	t.Name = name
	return nil
}

// maxNameLen keeps names short enough for a pane title.
const maxNameLen = 64

// nameProblem says why name cannot identify a type, or "" when it can:
// the model writes names into tool calls, so they stay plain words.
func nameProblem(name string) string {
	if utf8.RuneCountInString(name) > maxNameLen {
		return fmt.Sprintf("is longer than %d characters", maxNameLen)
	}
	words := 0
	for _, r := range name {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			words++
		case r != '-' && r != '_' && r != '.' && r != '/':
			return "has characters other than letters, digits, '-', '_', '.' and '/'"
		}
	}
	if words == 0 {
		return "has no letters or digits"
	}
	return ""
}

// displayName turns "code-reviewer" into "Code Reviewer" for panes.
func displayName(name string) string {
	words := strings.FieldsFunc(name, func(r rune) bool { return r == '-' || r == '_' || r == ' ' })
	for i, w := range words {
		r, size := utf8.DecodeRuneInString(w)
		words[i] = string(unicode.ToUpper(r)) + w[size:]
	}
	return strings.Join(words, " ")
}
