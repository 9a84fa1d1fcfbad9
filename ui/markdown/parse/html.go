package parse

import "strings"

// htmlBlockStart is the kind (1 to 7, CommonMark's start conditions) of
// the HTML block that s, a line from its first character that is not a
// space, starts, or 0.
func htmlBlockStart(s string) int {
	switch {
	case len(s) < 2 || s[0] != '<':
		return 0
	case rawTextTag(s[1:]):
		return 1
	case strings.HasPrefix(s, "<!--"):
		return 2
	case s[1] == '?':
		return 3
	case strings.HasPrefix(s, "<![CDATA["):
		return 5
	case s[1] == '!' && len(s) > 2 && s[2] >= 'A' && s[2] <= 'Z':
		return 4
	}
	if name, closing, attrs, ok := tagLine(s); ok {
		switch name = strings.ToLower(name); {
		case blockElement(name):
			return 6
		case name != "script" && name != "style" && name != "pre" && !(closing && attrs):
			return 7
		}
		return 0
	}
	if blockTag(s) {
		return 6
	}
	return 0
}

// rawTextTag says whether s (after the <) opens script, pre, style or
// textarea: the name, then a space, > or the end of the line.
func rawTextTag(s string) bool {
	for _, name := range [...]string{"script", "pre", "style", "textarea"} {
		if len(s) >= len(name) && strings.EqualFold(s[:len(name)], name) {
			rest := s[len(name):]
			return rest == "" || rest[0] == ' ' || rest[0] == '\t' || rest[0] == '>' || strings.HasPrefix(rest, "/>")
		}
	}
	return false
}

// blockTag says whether s starts with <name or </name (spaces allowed
// after the slash) of a block-level HTML element, followed by a space, >,
// /> or the end of the line.
func blockTag(s string) bool {
	name := tagNameOf(s)
	if name == "" || !blockElement(strings.ToLower(name)) {
		return false
	}
	i := strings.Index(s, name) + len(name)
	rest := s[i:]
	return rest == "" || rest[0] == ' ' || rest[0] == '>' || strings.HasPrefix(rest, "/>")
}

// tagNameOf is the tag name after < or </ (and spaces) at the start of s.
func tagNameOf(s string) string {
	i := 1
	if i < len(s) && s[i] == '/' {
		i++
		for i < len(s) && s[i] == ' ' {
			i++
		}
	}
	n := tagName(s[i:])
	return s[i : i+n]
}

// blockElement says whether name, lower case, is an element whose tag
// starts an HTML block of kind 6.
func blockElement(name string) bool {
	switch name {
	case "address", "article", "aside", "base", "basefont", "blockquote", "body", "caption", "center",
		"col", "colgroup", "dd", "details", "dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption",
		"figure", "footer", "form", "frame", "frameset", "h1", "h2", "h3", "h4", "h5", "h6", "head",
		"header", "hr", "html", "iframe", "legend", "li", "link", "main", "menu", "menuitem", "meta",
		"nav", "noframes", "ol", "optgroup", "option", "p", "param", "search", "section", "summary",
		"table", "tbody", "td", "tfoot", "th", "thead", "title", "tr", "track", "ul":
		return true
	}
	return false
}

// htmlBlockEnds says whether line ends an HTML block of kind k (1 to 5;
// the others end at a blank line).
func htmlBlockEnds(k int, line string) bool {
	switch k {
	case 1:
		lower := strings.ToLower(line)
		return strings.Contains(lower, "</script>") || strings.Contains(lower, "</pre>") ||
			strings.Contains(lower, "</style>") || strings.Contains(lower, "</textarea>")
	case 2:
		return strings.Contains(line, "-->")
	case 3:
		return strings.Contains(line, "?>")
	case 4:
		return strings.Contains(line, ">")
	case 5:
		return strings.Contains(line, "]]>")
	}
	return false
}

// tagName is the length of the HTML tag name at the start of s: a letter,
// then letters, digits and hyphens.
func tagName(s string) int {
	if s == "" || !letter(s[0]) {
		return 0
	}
	i := 1
	for i < len(s) && (letter(s[i]) || digit(s[i]) || s[i] == '-') {
		i++
	}
	return i
}

// tagLine reads a line that holds one open or closing tag and nothing
// after it but spaces: its name, whether it closes, and whether it has
// attributes. A closing tag may have spaces after its slash.
func tagLine(s string) (name string, closing, attrs bool, ok bool) {
	i := 1
	closing = i < len(s) && s[i] == '/'
	if closing {
		i++
		for i < len(s) && s[i] == ' ' {
			i++
		}
	}
	n := tagName(s[i:])
	if n == 0 {
		return "", false, false, false
	}
	name = s[i : i+n]
	end := (&source{s: s}).attributes(i + n)
	attrs = end > i+n
	i = end
	for i < len(s) && s[i] == ' ' {
		i++
	}
	if i+1 < len(s) && s[i] == '/' && s[i+1] == '>' {
		i++
	}
	if i >= len(s) || s[i] != '>' {
		return "", false, false, false
	}
	return name, closing, attrs, strings.Trim(s[i+1:], " ") == ""
}

// attributes skips the attributes of a tag from i.
func (src *source) attributes(i int) int {
	s := src.s
	for {
		j := skipSpace(s, i)
		if j == i || j >= len(s) || !(letter(s[j]) || s[j] == '_' || s[j] == ':') {
			return i
		}
		j++
		for j < len(s) && (letter(s[j]) || digit(s[j]) || strings.IndexByte("_.:-", s[j]) >= 0) {
			j++
		}
		i = j
		k := skipSpace(s, j)
		if k >= len(s) || s[k] != '=' {
			continue
		}
		k = skipSpace(s, k+1)
		if end := src.attributeValue(k); end > k {
			i = end
		}
	}
}

// attributeValue is the end of the attribute value at i, or i.
func (src *source) attributeValue(i int) int {
	s := src.s
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '"':
		if end := src.index(doubleQuote, i+1); end >= 0 {
			return end + 1
		}
		return i
	case '\'':
		if end := src.index(singleQuote, i+1); end >= 0 {
			return end + 1
		}
		return i
	}
	j := i
	for j < len(s) && s[j] > ' ' && strings.IndexByte("\"'=<>`", s[j]) < 0 {
		j++
	}
	return j
}

// skipSpace skips spaces, tabs and newlines from i.
func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n') {
		i++
	}
	return i
}

// letter says whether c is an ASCII letter.
func letter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// digit says whether c is an ASCII digit.
func digit(c byte) bool { return c >= '0' && c <= '9' }

// rawHTML is the length of the inline HTML (a tag, a comment, a
// processing instruction, a declaration or a CDATA section) at i, or 0.
func (src *source) rawHTML(i int) int {
	s := src.s[i:]
	if len(s) < 2 {
		return 0
	}
	switch {
	case letter(s[1]):
		return src.openTag(i)
	case s[1] == '/':
		return closingTag(s)
	case strings.HasPrefix(s, "<!-->"):
		return len("<!-->")
	case strings.HasPrefix(s, "<!--->"):
		return len("<!--->")
	case strings.HasPrefix(s, "<!--"):
		return src.through(i, i+4, commentEnd)
	case s[1] == '?':
		return src.through(i, i, instructionEnd)
	case s[1] == '!' && len(s) > 2 && s[2] >= 'A' && s[2] <= 'Z':
		return src.through(i, i, declarationEnd)
	case strings.HasPrefix(s, "<![CDATA["):
		return src.through(i, i, cdataEnd)
	}
	return 0
}

// through is the length from i to the end of the first needle k after
// from, or 0.
func (src *source) through(i, from int, k needle) int {
	if at := src.index(k, from); at >= 0 {
		return at + len(needles[k]) - i
	}
	return 0
}

// openTag is the length of the open tag at i, or 0.
func (src *source) openTag(i int) int {
	s := src.s
	n := tagName(s[i+1:])
	if n == 0 {
		return 0
	}
	j := skipSpace(s, src.attributes(i+1+n))
	if j < len(s) && s[j] == '/' {
		j++
	}
	if j < len(s) && s[j] == '>' {
		return j + 1 - i
	}
	return 0
}

// closingTag is the length of the closing tag at the start of s, or 0.
func closingTag(s string) int {
	n := tagName(s[2:])
	if n == 0 {
		return 0
	}
	i := skipSpace(s, 2+n)
	if i < len(s) && s[i] == '>' {
		return i + 1
	}
	return 0
}
