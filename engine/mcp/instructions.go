package mcp

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// maxInstructions bounds the instructions one server adds to the system
// prompt, which every request carries.
const maxInstructions = 8000

// serverInstructions are the instructions s sent in its handshake, as
// they may join the system prompt: cleaned of terminal controls and
// bounded. A server that came with an untrusted project may run once the
// person allowed it, but it does not get to instruct the model; the note
// says so.
func serverInstructions(s Server, raw string) (string, []string) {
	text := strings.TrimSpace(clean(raw))
	switch {
	case text == "":
		return "", nil
	case s.Project:
		return "", []string{"its instructions are left out of the system prompt: this folder is not trusted (`baton trust`)"}
	}
	if n := utf8.RuneCountInString(text); n > maxInstructions {
		return fmt.Sprintf("%s… [instructions cut: %d more characters]", string([]rune(text)[:maxInstructions]), n-maxInstructions),
			[]string{fmt.Sprintf("its instructions have %d characters; the system prompt gets the first %d", n, maxInstructions)}
	}
	return text, nil
}

// clean removes what a server could use to steer a terminal or hide text
// from a reader: escape sequences (CSI, OSC, DCS and the rest), control
// characters other than newline and tab, and bidirectional overrides.
// Text from servers passes through it before anyone shows it.
func clean(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == 0x1b:
			i += escapeLength(s[i:])
			continue
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r == utf8.RuneError && size == 1,
			r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f,
			r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		default:
			b.WriteRune(r)
		}
		i += size
	}
	return b.String()
}

// escapeLength is the length of the escape sequence s starts with: a CSI
// up to its final byte, an OSC, DCS, SOS, PM or APC up to its terminator
// (BEL or ESC \), or ESC and one more character.
func escapeLength(s string) int {
	if len(s) < 2 {
		return len(s)
	}
	switch s[1] {
	case '[':
		for i := 2; i < len(s); i++ {
			if s[i] >= 0x40 && s[i] <= 0x7e {
				return i + 1
			}
		}
		return len(s)
	case ']', 'P', 'X', '^', '_':
		for i := 2; i < len(s); i++ {
			if s[i] == 0x07 {
				return i + 1
			}
			if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
		}
		return len(s)
	}
	_, size := utf8.DecodeRuneInString(s[1:])
	return 1 + size
}
