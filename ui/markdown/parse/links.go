package parse

import "strings"

// inlineLink reads the (destination "title") of an inline link at i, up
// to its closing parenthesis: the destination as written, the title, and
// where it ends. The destination is on one line; space around it and
// the title may run over lines.
func (src *source) inlineLink(i int) (dest, title string, end int, ok bool) {
	s := src.s
	if i >= len(s) || s[i] != '(' {
		return "", "", 0, false
	}
	i = skipSpaces(s, i+1)
	if i < len(s) && s[i] == ')' {
		return "", "", i + 1, true
	}
	dest, i, ok = destination(s, i)
	if !ok {
		return "", "", 0, false
	}
	i = skipSpaces(s, i)
	if i < len(s) && s[i] == ')' {
		return dest, "", i + 1, true
	}
	title, i, ok = src.linkTitle(i)
	if !ok {
		return "", "", 0, false
	}
	i = skipSpaces(s, i)
	if i < len(s) && s[i] == ')' {
		return dest, title, i + 1, true
	}
	return "", "", 0, false
}

// skipSpaces skips white space, newlines included, from i.
func skipSpaces(s string, i int) int {
	for i < len(s) && strings.IndexByte(" \t\n\v\f\r", s[i]) >= 0 {
		i++
	}
	return i
}

// asciiPunct says whether c is ASCII punctuation, which a backslash
// escapes.
func asciiPunct(c byte) bool {
	return c > ' ' && c < 0x7f && !digit(c) && !letter(c)
}

// maxParens is how deep parentheses may nest in a link destination.
const maxParens = 32

// destination reads a link destination at i: <in brackets>, or a run
// without spaces whose parentheses balance.
func destination(s string, i int) (string, int, bool) {
	if i < len(s) && s[i] == '<' {
		for j := i + 1; j < len(s) && s[j] != '\n'; j++ {
			switch {
			case s[j] == '\\' && j+1 < len(s) && asciiPunct(s[j+1]):
				j++
			case s[j] == '>':
				return s[i+1 : j], j + 1, true
			case s[j] == '<':
				// No unescaped < inside: and a run of "](<" must not
				// read the rest of the line again at each.
				return "", 0, false
			}
		}
		return "", 0, false
	}
	open := 0
	j := i
scan:
	for ; j < len(s); j++ {
		switch c := s[j]; {
		case c == '\\' && j+1 < len(s) && asciiPunct(s[j+1]):
			j++
		case c == '(':
			// Deeper nesting than any real address is not one, and
			// stopping here keeps a run of "](" from costing its square.
			if open++; open > maxParens {
				return "", 0, false
			}
		case c == ')':
			open--
			if open < 0 {
				break scan
			}
		case strings.IndexByte(" \t\n\v\f\r", c) >= 0:
			break scan
		}
	}
	return s[i:j], j, j > i
}

// linkTitle reads a link title at i: in double or single quotes or in
// parentheses, with backslash escapes.
func (src *source) linkTitle(i int) (string, int, bool) {
	s := src.s
	if i >= len(s) {
		return "", 0, false
	}
	var quote needle
	switch s[i] {
	case '"':
		quote = doubleQuote
	case '\'':
		quote = singleQuote
	case '(':
		for j := i + 1; j < len(s); j++ {
			switch c := s[j]; {
			case c == '\\' && j+1 < len(s) && asciiPunct(s[j+1]):
				j++
			case c == ')':
				return decode(s[i+1 : j]), j + 1, true
			case c == '(':
				return "", 0, false
			}
		}
		return "", 0, false
	default:
		return "", 0, false
	}
	// The first quote after the opening one that no backslash escapes.
	for from := i + 1; ; {
		at := src.index(quote, from)
		if at < 0 {
			return "", 0, false
		}
		slashes := 0
		for at-1-slashes > i && s[at-1-slashes] == '\\' {
			slashes++
		}
		if slashes%2 == 0 {
			return decode(s[i+1 : at]), at + 1, true
		}
		from = at + 1
	}
}

// autoLink is the length of the autolink at the start of s, <scheme:...>
// or <user@host>, or 0.
func autoLink(s string) int {
	end := 1
	for end < len(s) && s[end] > ' ' && s[end] != '<' && s[end] != '>' {
		end++
	}
	if end >= len(s) || s[end] != '>' {
		return 0
	}
	body := s[1:end]
	if email(body) || uri(body) {
		return end + 1
	}
	return 0
}

// uri says whether s is an absolute URI: a scheme of 2 to 33 letters,
// digits, + . -, a colon, then no spaces, controls or angle brackets.
func uri(s string) bool {
	colon := strings.IndexByte(s, ':')
	if colon < 2 || colon > 33 || !letter(s[0]) {
		return false
	}
	for i := 1; i < colon; i++ {
		if c := s[i]; !letter(c) && !digit(c) && c != '+' && c != '.' && c != '-' {
			return false
		}
	}
	for i := colon + 1; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c == '<' {
			return false
		}
	}
	return true
}

// email says whether s is an email address as CommonMark's autolinks
// take it.
func email(s string) bool {
	at := strings.IndexByte(s, '@')
	if at < 1 {
		return false
	}
	for i := 0; i < at; i++ {
		if c := s[i]; !letter(c) && !digit(c) && strings.IndexByte(".!#$%&'*+/=?^_`{|}~-", c) < 0 {
			return false
		}
	}
	for _, label := range strings.Split(s[at+1:], ".") {
		if len(label) == 0 || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for i := 0; i < len(label); i++ {
			if c := label[i]; !letter(c) && !digit(c) && c != '-' {
				return false
			}
		}
	}
	return true
}
