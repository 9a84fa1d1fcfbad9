package parse

import "strings"

// mayStartBlock says whether the character at i of line can begin a
// block other than a paragraph.
func mayStartBlock(line string, i int) bool {
	if i >= len(line) {
		return false
	}
	switch c := line[i]; c {
	case '#', '`', '~', '*', '+', '_', '=', '<', '>', '-':
		return true
	default:
		return c >= '0' && c <= '9'
	}
}

// spaceOrTab says whether c is a space or a tab.
func spaceOrTab(c byte) bool { return c == ' ' || c == '\t' }

// onlySpaces says whether s holds nothing but spaces and tabs.
func onlySpaces(s string) bool { return strings.Trim(s, " \t") == "" }

// atxHeading reads "## Title ##": its level and its text, without the
// closing run of #.
func atxHeading(s string) (int, string, bool) {
	level := 0
	for level < len(s) && s[level] == '#' {
		level++
	}
	if level > 6 || (level < len(s) && !spaceOrTab(s[level])) {
		return 0, "", false
	}
	text := strings.Trim(s[level:], " \t")
	end := len(text)
	for end > 0 && text[end-1] == '#' {
		end--
	}
	switch {
	case end == 0:
		text = ""
	case spaceOrTab(text[end-1]):
		text = strings.TrimRight(text[:end], " \t")
	}
	return level, text, true
}

// openingFence reads a code fence, ``` or ~~~ and an info string: its
// length and the info string.
func openingFence(s string) (int, string, bool) {
	c := s[0]
	n := 0
	for n < len(s) && s[n] == c {
		n++
	}
	if n < 3 {
		return 0, "", false
	}
	info := strings.Trim(s[n:], " \t")
	if c == '`' && strings.IndexByte(info, '`') >= 0 {
		return 0, "", false
	}
	return n, info, true
}

// closesFence says whether s, from its first character that is not a
// space, closes a fence of n characters c.
func closesFence(s string, c byte, n int) bool {
	run := 0
	for run < len(s) && s[run] == c {
		run++
	}
	return run >= n && onlySpaces(s[run:])
}

// setextLevel is the level of the heading a line of = (1) or - (2)
// underlines, or 0.
func setextLevel(s string) int {
	body := strings.TrimRight(s, " \t")
	if strings.Trim(body, "=") == "" {
		return 1
	}
	if strings.Trim(body, "-") == "" {
		return 2
	}
	return 0
}

// thematicBreak says whether s is a rule: three or more of one of * - _,
// with nothing else but spaces. When it is not, stop is how far into s
// that was decided: no rule starts anywhere before it either, as what
// lies between is the same character and spaces.
func thematicBreak(s string) (ok bool, stop int) {
	c := s[0]
	if c != '*' && c != '-' && c != '_' {
		return false, 0
	}
	n := 0
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == c:
			n++
		case !spaceOrTab(s[i]):
			return false, i
		}
	}
	return n >= 3, len(s)
}

// listItemMarker is a list item's marker as read on its first line.
type listItemMarker struct {
	ordered bool
	marker  byte
	number  int
	indent  int // columns from the line's start to the item's content
	content int // where the item's content begins in the line
}

// listMarker reads a list item's marker at the next character that is
// not a space, if there is one that can start an item in c.
func (p *parser) listMarker(c *node) (listItemMarker, bool) {
	rest := p.rest()
	m := listItemMarker{}
	width := 0
	switch rest[0] {
	case '-', '+', '*':
		m.marker, width = rest[0], 1
	default:
		for width < len(rest) && width < 10 && rest[width] >= '0' && rest[width] <= '9' {
			m.number = m.number*10 + int(rest[width]-'0')
			width++
		}
		if width == 0 || width > 9 || width >= len(rest) || (rest[width] != '.' && rest[width] != ')') {
			return m, false
		}
		if c.kind == kindParagraph && m.number != 1 {
			return m, false
		}
		m.ordered, m.marker = true, rest[width]
		width++
	}
	after := rest[width:]
	if after != "" && after[0] != ' ' && after[0] != '\t' {
		return m, false
	}
	spaces := len(after) - len(strings.TrimLeft(after, " \t"))
	blankItem := spaces == len(after)
	if c.kind == kindParagraph && blankItem {
		return m, false
	}
	markerAt := p.nonspace - p.pos
	switch {
	case blankItem || spaces >= 5:
		m.indent = markerAt + width + 1
		m.content = p.nonspace + width + min(spaces, 1)
	default:
		m.indent = markerAt + width + spaces
		m.content = p.nonspace + width + spaces
	}
	return m, true
}
