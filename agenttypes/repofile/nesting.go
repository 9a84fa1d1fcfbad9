package repofile

import (
	"bytes"
	"fmt"
)

// MaxNesting is how deep a repository file's values may nest: tables,
// arrays and objects, and in TOML every part of a dotted key or table
// header. Real files nest a handful of levels; a parser's cost can grow
// with the square of the depth (a 32 KB TOML file of nested inline tables
// took more than 3 GB to parse), so the depth is checked before parsing.
const MaxNesting = 16

// Syntax is the language of a file CheckNesting scans.
type Syntax int

const (
	// TOML counts brackets, braces, dotted keys and table headers.
	TOML Syntax = iota
	// JSON counts brackets and braces; JSONC's comments are skipped.
	JSON
	// YAML counts flow brackets and braces, block indentation and
	// sequence or key markers that open a level on their own line.
	YAML
)

// CheckNesting refuses data nested deeper than MaxNesting, before any
// parser sees it; the error is a *SkipError.
func CheckNesting(path string, data []byte, syntax Syntax) error {
	if depth, line := Nesting(data, syntax); depth > MaxNesting {
		return skipped(path, fmt.Sprintf("nested deeper than %d levels (line %d)", MaxNesting, line))
	}
	return nil
}

// Nesting measures how deep data nests, up to the first point deeper than
// MaxNesting, and the line of the deepest point. The scan is lexical and
// linear: strings and comments are skipped and everything else counted,
// so it may count a level more than a parser would, never fewer.
func Nesting(data []byte, syntax Syntax) (depth, line int) {
	switch syntax {
	case TOML:
		return tomlDepth(data)
	case JSON:
		return jsonDepth(data)
	default:
		return yamlDepth(data)
	}
}

// nestScan is the state the three scanners share: the open containers,
// each with the levels it added and whether it is an array, and the
// deepest point seen so far.
type nestScan struct {
	data  []byte
	i     int
	line  int
	open  []container
	depth int // the sum of the open containers' levels
	// deepest is the deepest point seen; deepLine is where.
	deepest, deepLine int
}

// container is one open array, table or object.
type container struct {
	levels int
	array  bool
}

// reach notes the current depth plus extra.
func (s *nestScan) reach(extra int) {
	if d := s.depth + extra; d > s.deepest {
		s.deepest, s.deepLine = d, s.line
	}
}

// push opens a container adding levels.
func (s *nestScan) push(levels int, array bool) {
	s.open = append(s.open, container{levels, array})
	s.depth += levels
	s.reach(0)
}

// pop closes the innermost container, if any.
func (s *nestScan) pop() {
	if n := len(s.open); n > 0 {
		s.depth -= s.open[n-1].levels
		s.open = s.open[:n-1]
	}
}

// inArray says the innermost open container is an array.
func (s *nestScan) inArray() bool {
	return len(s.open) > 0 && s.open[len(s.open)-1].array
}

// over says the scan already found too deep a point.
func (s *nestScan) over() bool { return s.deepest > MaxNesting }

// skipLine moves to the last byte before the line's end (comments).
func (s *nestScan) skipLine() {
	if j := bytes.IndexByte(s.data[s.i:], '\n'); j >= 0 {
		s.i += j - 1
	} else {
		s.i = len(s.data)
	}
}

// skipQuoted moves to the closing quote of a string opened at s.i;
// escapes says a backslash escapes the next byte, tripled that the quote
// is three quotes, spans that the string may go on over lines. A string
// that may not span lines ends at the line's end, closed or not.
func (s *nestScan) skipQuoted(quote byte, escapes, tripled, spans bool) {
	if tripled {
		s.i += 2
	}
	for s.i++; s.i < len(s.data); s.i++ {
		c := s.data[s.i]
		switch {
		case c == '\\' && escapes:
			if s.i+1 < len(s.data) && s.data[s.i+1] == '\n' {
				s.line++
			}
			s.i++
		case c == '\n':
			if !spans {
				s.i--
				return
			}
			s.line++
		case c == quote && !tripled:
			return
		case c == quote && bytes.HasPrefix(s.data[s.i:], []byte{quote, quote, quote}):
			// A tripled string may end with up to two more quotes.
			s.i += 2
			for s.i+1 < len(s.data) && s.data[s.i+1] == quote {
				s.i++
			}
			return
		}
	}
}

// tomlDepth measures TOML: a table header's parts are the depth the keys
// under it start from; each part of a dotted key, and each array or
// inline table, adds a level to what encloses it.
func tomlDepth(data []byte) (int, int) {
	s := nestScan{data: data, line: 1}
	base := 0  // parts of the last table header
	parts := 1 // parts of the key being read, or whose value is read
	inValue := false
	// inHeader is set inside [a.b]; arrayHeader inside [[a.b]], whose
	// tables are one level deeper, as elements of the array.
	inHeader, arrayHeader := false, false
	for ; s.i < len(data) && !s.over(); s.i++ {
		switch c := data[s.i]; c {
		case '#':
			s.skipLine()
		case '"', '\'':
			tripled := bytes.HasPrefix(data[s.i:], []byte{c, c, c})
			s.skipQuoted(c, c == '"', tripled, tripled)
		case '.':
			if !inValue {
				parts++
				s.reach(base + parts)
			}
		case '=':
			inValue = true
			s.reach(base + parts)
		case '[', '{':
			switch {
			case inValue:
				s.push(parts, c == '[')
				s.reach(base + 1) // its elements or keys
				parts, inValue = 1, c == '['
			case len(s.open) == 0 && c == '[':
				// A table header, [a.b] or [[a.b]].
				inHeader, base, parts = true, 0, 1
				arrayHeader = s.i+1 < len(data) && data[s.i+1] == '['
				for s.i+1 < len(data) && data[s.i+1] == '[' {
					s.i++
				}
			}
		case ']', '}':
			if inHeader {
				base, parts, inHeader = parts, 1, false
				if arrayHeader {
					base++
				}
				s.reach(base)
				for s.i+1 < len(data) && data[s.i+1] == ']' {
					s.i++
				}
				continue
			}
			s.pop()
			inValue = true
		case ',':
			// The next element of an array, or key of an inline table.
			parts, inValue = 1, s.inArray()
		case '\n':
			s.line++
			if len(s.open) == 0 {
				parts, inValue = 1, false
			}
		}
	}
	return s.deepest, s.deepLine
}

// jsonDepth measures JSON and JSONC: each array or object is a level.
func jsonDepth(data []byte) (int, int) {
	s := nestScan{data: data, line: 1}
	for ; s.i < len(data) && !s.over(); s.i++ {
		switch c := data[s.i]; c {
		case '"':
			s.skipQuoted('"', true, false, false)
		case '/':
			s.skipJSONComment()
		case '[', '{':
			s.push(1, c == '[')
		case ']', '}':
			s.pop()
		case '\n':
			s.line++
		}
	}
	return s.deepest, s.deepLine
}

// skipJSONComment moves past a JSONC comment starting at s.i, if one
// does.
func (s *nestScan) skipJSONComment() {
	rest := s.data[s.i:]
	switch {
	case bytes.HasPrefix(rest, []byte("//")):
		s.skipLine()
	case bytes.HasPrefix(rest, []byte("/*")):
		end := bytes.Index(rest[2:], []byte("*/"))
		if end < 0 {
			end = len(rest) - 4
		}
		s.line += bytes.Count(rest[:end+2], []byte{'\n'})
		s.i += end + 3
	}
}

// yamlDepth measures YAML: each block level (a deeper indentation, or a
// "- ", "? " or ": " that opens a level on the same line) and each flow
// sequence or mapping is a level. Block scalars (| and >) are text, and
// so are brackets and quotes inside a plain scalar.
func yamlDepth(data []byte) (int, int) {
	s := nestScan{data: data, line: 1}
	b := yamlBlocks{scalarAbove: -1}
	lineStart := true
	// valueStart says a value may start here; afterSpace that a comment
	// may.
	valueStart, afterSpace := true, true
	for ; s.i < len(data) && !s.over(); s.i++ {
		if lineStart && len(s.open) == 0 {
			lineStart, valueStart, afterSpace = false, true, true
			b.startLine(&s)
			continue
		}
		lineStart = false
		c := data[s.i]
		space := c == ' ' || c == '\t' || c == '\r'
		switch {
		case space:
		case c == '\n':
			s.line++
			lineStart, space = true, true
		case c == '#' && afterSpace:
			s.skipLine()
		case (c == '"' || c == '\'') && valueStart:
			s.skipQuoted(c, c == '"', false, true)
			valueStart = false
		case (c == '[' || c == '{') && valueStart:
			s.push(1, c == '[')
			s.reach(len(b.indents))
		case (c == ']' || c == '}') && len(s.open) > 0:
			s.pop()
			valueStart = false
		case c == ',' && len(s.open) > 0:
			valueStart = true
		case c == ':' && (len(s.open) > 0 || s.i+1 == len(data) || isYAMLSpace(data[s.i+1])):
			valueStart = true
		case (c == '|' || c == '>') && valueStart && len(s.open) == 0 && len(b.indents) > 0:
			b.scalarAbove = b.indents[len(b.indents)-1]
			valueStart = false
		default:
			valueStart = false
		}
		afterSpace = space
	}
	return s.deepest, s.deepLine
}

// isYAMLSpace says c separates tokens.
func isYAMLSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// yamlBlocks is the block structure of a YAML scan.
type yamlBlocks struct {
	// indents are the columns of the open block levels.
	indents []int
	// scalarAbove, when not -1, is the indentation that lines of a block
	// scalar's text are deeper than.
	scalarAbove int
}

// startLine reads the indentation and level markers of the line at s.i
// and leaves s.i on the byte before the line's first token. A blank line,
// a comment line and a block scalar's text are passed over.
func (b *yamlBlocks) startLine(s *nestScan) {
	data := s.data
	indent := 0
	for s.i+indent < len(data) && data[s.i+indent] == ' ' {
		indent++
	}
	j := s.i + indent
	if j == len(data) || data[j] == '\n' || data[j] == '\r' || data[j] == '#' || b.scalarAbove >= 0 && indent > b.scalarAbove {
		s.i = j
		if j < len(data) && data[j] != '\n' {
			s.skipLine()
		} else {
			s.i--
		}
		return
	}
	b.scalarAbove = -1
	for len(b.indents) > 0 && b.indents[len(b.indents)-1] >= indent {
		b.indents = b.indents[:len(b.indents)-1]
	}
	b.indents = append(b.indents, indent)
	// "- - x", "? - x" and "- a: - x" open further levels on one line.
	for j+1 < len(data) && (data[j] == '-' || data[j] == '?' || data[j] == ':') && (data[j+1] == ' ' || data[j+1] == '\n') {
		for j++; j < len(data) && data[j] == ' '; j++ {
		}
		b.indents = append(b.indents, j-s.i)
	}
	s.reach(len(b.indents))
	s.i = j - 1
}
