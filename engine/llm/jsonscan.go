package llm

import (
	"bytes"
	"unicode/utf16"
	"unicode/utf8"
)

// textScanner is a cursor over one JSON line, with what scanTextChunk
// has read of it.
type textScanner struct {
	b []byte
	i int
	// choices says the line named its choices once already: a second
	// list is decoded over the first one's choices, which encoding/json
	// does not clear first, so that is left to it.
	choices bool
}

// space steps over whitespace.
func (s *textScanner) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// peek is the next byte after whitespace, or 0 at the end.
func (s *textScanner) peek() byte {
	s.space()
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

// take steps over c, after whitespace, if it comes next.
func (s *textScanner) take(c byte) bool {
	if s.peek() == c && c != 0 {
		s.i++
		return true
	}
	return false
}

// object reads an object, handing each key to field, which reads its
// value.
func (s *textScanner) object(field func(key []byte) bool) bool {
	if !s.take('{') {
		return false
	}
	if s.take('}') {
		return true
	}
	for {
		if s.peek() != '"' {
			return false
		}
		key, ok := s.rawString()
		if !ok || bytes.IndexByte(key, '\\') >= 0 || !s.take(':') || !field(key) {
			return false
		}
		if !s.take(',') {
			return s.take('}')
		}
	}
}

// null reads the literal null.
func (s *textScanner) null() bool { return s.literal("null") }

// literal reads word.
func (s *textScanner) literal(word string) bool {
	s.space()
	if bytes.HasPrefix(s.b[s.i:], []byte(word)) {
		s.i += len(word)
		return true
	}
	return false
}

// optString reads a string into dst, or null, which leaves dst as it is.
func (s *textScanner) optString(dst *string) bool {
	switch s.peek() {
	case 'n':
		return s.null()
	case '"':
		v, ok := s.str()
		if ok {
			*dst = v
		}
		return ok
	}
	return false
}

// skipDepth is how deeply nested a value the scan steps over may be.
const skipDepth = 32

// skip steps over any value, checking that it is JSON: a key baton does
// not read may hold anything (OpenRouter's reasoning_details, Groq's
// x_groq, Azure's content filter results).
func (s *textScanner) skip(depth int) bool {
	switch s.peek() {
	case '{':
		return depth < skipDepth && s.object(func([]byte) bool { return s.skip(depth + 1) })
	case '[':
		if depth >= skipDepth {
			return false
		}
		s.i++
		if s.take(']') {
			return true
		}
		for {
			if !s.skip(depth + 1) {
				return false
			}
			if !s.take(',') {
				return s.take(']')
			}
		}
	}
	return s.scalar()
}

// scalar steps over a string, number, true, false or null.
func (s *textScanner) scalar() bool {
	switch c := s.peek(); {
	case c == '"':
		_, ok := s.rawString()
		return ok
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.null()
	case c == '-' || (c >= '0' && c <= '9'):
		return s.number()
	}
	return false
}

// number steps over a JSON number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *textScanner) number() bool {
	if s.i < len(s.b) && s.b[s.i] == '-' {
		s.i++
	}
	switch {
	case s.i < len(s.b) && s.b[s.i] == '0':
		s.i++
	case s.digits() == 0:
		return false
	}
	if s.i < len(s.b) && s.b[s.i] == '.' {
		s.i++
		if s.digits() == 0 {
			return false
		}
	}
	if s.i < len(s.b) && (s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		s.i++
		if s.i < len(s.b) && (s.b[s.i] == '+' || s.b[s.i] == '-') {
			s.i++
		}
		if s.digits() == 0 {
			return false
		}
	}
	return true
}

// digits steps over decimal digits and says how many.
func (s *textScanner) digits() int {
	start := s.i
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
	}
	return s.i - start
}

// rawString steps over a string, returning what is between its quotes
// as it stands. Control characters, escapes JSON does not have and
// invalid UTF-8 are refused.
func (s *textScanner) rawString() ([]byte, bool) {
	if s.i >= len(s.b) || s.b[s.i] != '"' {
		return nil, false
	}
	start, ascii := s.i+1, true
	for i := start; i < len(s.b); i++ {
		switch c := s.b[i]; {
		case c == '"':
			s.i = i + 1
			inner := s.b[start:i]
			return inner, ascii || utf8.Valid(inner)
		case c == '\\':
			i++
			if i >= len(s.b) {
				return nil, false
			}
			switch s.b[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if _, ok := hex4(s.b[i+1:]); !ok {
					return nil, false
				}
				i += 4
			default:
				return nil, false
			}
		case c < 0x20:
			return nil, false
		case c >= 0x80:
			ascii = false
		}
	}
	return nil, false
}

// str reads a string's value. Escapes are decoded as encoding/json does;
// \u escapes of surrogates, which it may replace, are refused.
func (s *textScanner) str() (string, bool) {
	inner, ok := s.rawString()
	if !ok {
		return "", false
	}
	if bytes.IndexByte(inner, '\\') < 0 {
		return string(inner), true
	}
	out := make([]byte, 0, len(inner))
	for i := 0; i < len(inner); i++ {
		c := inner[i]
		if c != '\\' {
			out = append(out, c)
			continue
		}
		i++
		if i >= len(inner) {
			return "", false
		}
		switch inner[i] {
		case '"', '\\', '/':
			out = append(out, inner[i])
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, ok := hex4(inner[i+1:])
			if !ok || utf16.IsSurrogate(r) {
				return "", false
			}
			out = utf8.AppendRune(out, r)
			i += 4
		default:
			return "", false
		}
	}
	return string(out), true
}

// hex4 reads the four hex digits of a \u escape.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}
