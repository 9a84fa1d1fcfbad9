package agenttypes

import (
	"regexp"
	"strconv"
	"strings"
)

// topLevelField matches an unindented "key: value" line of a header.
var topLevelField = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_-]*)\s*:\s*(.*)$`)

// lenientHeader rewrites a header strict YAML rejects the way OpenCode's
// documented fallback does, since Claude Code reads such files: a
// top-level plain value holding a colon ("description: Use it when:
// ...") is taken whole as text. The value is written as one quoted line,
// not a block, so the lines of the header (and its warnings) stay put.
func lenientHeader(header string) string {
	lines := strings.Split(header, "\n")
	for i, line := range lines {
		m := topLevelField.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		value := strings.TrimSpace(m[2])
		switch {
		case value == "", value == "|", value == ">",
			strings.HasPrefix(value, `"`), strings.HasPrefix(value, "'"),
			!strings.Contains(value, ":"):
			continue
		}
		lines[i] = m[1] + ": " + strconv.Quote(value)
	}
	return strings.Join(lines, "\n")
}

// firstLine is the first non-blank line of a Markdown body, without its
// heading marks, cut to a line's length.
func firstLine(body string) string {
	for _, line := range strings.Split(body, "\n") {
		if line = strings.TrimSpace(strings.TrimLeft(line, "# \t")); line != "" {
			if r := []rune(line); len(r) > maxDescriptionRunes {
				line = string(r[:maxDescriptionRunes]) + "…"
			}
			return line
		}
	}
	return ""
}

// maxDescriptionRunes bounds a description taken from a prompt.
const maxDescriptionRunes = 200
