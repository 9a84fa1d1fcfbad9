package parse

import "strings"

// inlineLink reads the (destination "title") of an inline link at i, up
// to its closing parenthesis: the destination as written, the title, and
// where it ends. The destination is on one line; space around it and
// the title may run over lines.
func inlineLink(s string, i int) (dest, title string, end int, ok bool) {
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
	title, i, ok = linkTitle(s, i)
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
			open++
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
func linkTitle(s string, i int) (string, int, bool) {
	if i >= len(s) {
		return "", 0, false
	}
	opener := s[i]
	closer := opener
	switch opener {
	case '(':
		closer = ')'
	case '"', '\'':
	default:
		return "", 0, false
	}
	for j := i + 1; j < len(s); j++ {
		switch c := s[j]; {
		case c == '\\' && j+1 < len(s) && asciiPunct(s[j+1]):
			j++
		case c == closer:
			return decode(s[i+1 : j]), j + 1, true
		case c == opener:
			return "", 0, false
		}
	}
	return "", 0, false
}

// autoLink is the length of the autolink at the start of s, <scheme:...>
// or <user@host>, or 0.
func autoLink(s string) int {
	end := strings.IndexByte(s, '>')
	if end < 0 {
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
