package parse

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// decode resolves a text's backslash escapes, then its numeric and then
// its named character references, so "\*" reads "*" and "&amp;" "&".
func decode(s string) string {
	if strings.IndexByte(s, '\\') >= 0 {
		s = unescape(s)
	}
	if strings.IndexByte(s, '&') >= 0 {
		s = references(s, true)
		s = references(s, false)
	}
	return s
}

// unescape drops the backslash before ASCII punctuation.
func unescape(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && asciiPunct(s[i+1]) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// references replaces the numeric (&#65; &#x41;) or the named (&amp;)
// character references of s by their characters.
func references(s string, numeric bool) string {
	var b strings.Builder
	done := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '&' {
			continue
		}
		var text string
		var end int
		if numeric {
			text, end = numericReference(s, i)
		} else {
			text, end = namedReference(s, i)
		}
		if end == 0 {
			continue
		}
		b.WriteString(s[done:i])
		b.WriteString(text)
		done = end
		i = end - 1
	}
	if done == 0 {
		return s
	}
	b.WriteString(s[done:])
	return b.String()
}

// numericReference reads &#digits; (up to seven) or &#xhex; at i: its
// character (U+FFFD for none, and for a control character: &#27; would
// put an escape sequence on the terminal, where a model's text was
// cleaned of every one) and its end, or 0.
func numericReference(s string, i int) (string, int) {
	j := i + 2
	if j > len(s) || s[i+1] != '#' {
		return "", 0
	}
	base := 10
	if j < len(s) && (s[j] == 'x' || s[j] == 'X') {
		base = 16
		j++
	}
	start := j
	for j < len(s) && (digit(s[j]) || (base == 16 && strings.IndexByte("abcdefABCDEF", s[j]) >= 0)) {
		j++
	}
	if j == start || j >= len(s) || s[j] != ';' || (base == 10 && j-start > 7) {
		return "", 0
	}
	v, err := strconv.ParseUint(s[start:j], base, 32)
	r := rune(v)
	if err != nil || r == 0 || !utf8.ValidRune(r) || unicode.IsControl(r) {
		r = utf8.RuneError
	}
	return string(r), j + 1
}

// namedReference reads &name; at i: its text and its end, or 0 for a
// name it does not know.
func namedReference(s string, i int) (string, int) {
	j := i + 1
	for j < len(s) && (letter(s[j]) || digit(s[j])) {
		j++
	}
	if j == i+1 || j >= len(s) || s[j] != ';' {
		return "", 0
	}
	text, ok := entity(s[i+1 : j])
	if !ok {
		return "", 0
	}
	return text, j + 1
}
