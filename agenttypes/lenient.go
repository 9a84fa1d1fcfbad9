package agenttypes

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// topLevelField matches an unindented "key: value" line of a header.
func topLevelField() *regexp.Regexp {
	topLevelFieldOnce.Do(func() { topLevelFieldValue = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_-]*)\s*:\s*(.*)$`) })
	return topLevelFieldValue
}

// topLevelFieldOnce and topLevelFieldValue hold it, built on first use (a zero
// sync.Once costs nothing at start; sync.OnceValue is init code).
var (
	topLevelFieldOnce  sync.Once
	topLevelFieldValue *regexp.Regexp
)

// lenientHeader rewrites a header strict YAML rejects the way OpenCode's
// documented fallback does, since Claude Code reads such files: a
// top-level plain value holding a colon ("description: Use it when:
// ...") is taken whole as text. So are the lines after a plain value up
// to the next field's line, as people write long descriptions with
// examples ("user: ...", "<example>") on unindented lines. The value is
// written as one quoted line and the lines it took in left blank, so the
// lines of the header (and its warnings) stay put.
func lenientHeader(header string) string {
	lines := strings.Split(header, "\n")
	for i := 0; i < len(lines); i++ {
		m := topLevelField().FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		value := strings.TrimSpace(m[2])
		if value == "" || strings.ContainsAny(value[:1], `"'|>[{&*!`) {
			continue
		}
		end := i + 1
		for end < len(lines) && continuesValue(lines[end]) {
			end++
		}
		for end > i+1 && strings.TrimSpace(lines[end-1]) == "" {
			end--
		}
		if end == i+1 && !strings.Contains(value, ":") {
			continue
		}
		parts := []string{value}
		for j := i + 1; j < end; j++ {
			parts = append(parts, strings.TrimSpace(lines[j]))
			lines[j] = ""
		}
		lines[i] = m[1] + ": " + strconv.Quote(strings.Join(parts, "\n"))
		i = end - 1
	}
	return strings.Join(lines, "\n")
}

// continuesValue reports whether a header line after a plain value is
// more of it: a blank line, indented text, or an unindented line that is
// not a field of an agent or command file ("user:" or "Context:" in an
// example is not one). Comments, list items, an indented "key: value"
// and a key opening a block are the header's structure, not text.
func continuesValue(line string) bool {
	trimmed := strings.TrimSpace(line)
	switch {
	case trimmed == "":
		return true
	case strings.HasPrefix(trimmed, "#"), trimmed == "-", strings.HasPrefix(trimmed, "- "):
		return false
	case line[0] == ' ' || line[0] == '\t':
		return !strings.Contains(trimmed, ": ") && !strings.HasSuffix(trimmed, ":")
	}
	m := topLevelField().FindStringSubmatch(line)
	if m == nil {
		return true
	}
	key := Normalize(m[1])
	_, known := fieldAliases[key]
	return strings.TrimSpace(m[2]) != "" && !known && !otherHeaderKeys[key]
}

// otherHeaderKeys are, normalized, the fields Claude Code and OpenCode
// files use that baton keeps aside (agent and command files share the
// header reader).
var otherHeaderKeys = map[string]bool{
	"permissionmode": true, "hooks": true, "mcpservers": true, "memory": true,
	"prompt": true, "options": true, "version": true, "allowedtools": true, "argumenthint": true,
	"agent": true, "subtask": true, "disablemodelinvocation": true, "license": true,
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
