// Package termtext makes untrusted text (from a model, a tool or an agent
// file) safe to draw in a terminal. The root UI and the panes share it so
// both strip the same things.
package termtext

import (
	"strings"
	"unicode"

	"github.com/charmbracelet/x/ansi"
)

// Clean removes escape sequences whole and drops other control
// characters, since either could move the cursor or restyle the terminal;
// tabs become four spaces so widths can be measured. Newlines stay.
func Clean(s string) string { return clean(s, false) }

// KeepingTabs cleans s as Clean does but leaves its tabs: for a message
// kept as the model wrote it, which /copy hands on (a Makefile or Go
// code needs its tabs). Every view draws it through Clean again.
func KeepingTabs(s string) string { return clean(s, true) }

func clean(s string, keepTabs bool) string {
	plain := true
	for _, r := range s {
		if r != '\n' && (r != '\t' || !keepTabs) && unicode.IsControl(r) {
			plain = false
			break
		}
	}
	if plain {
		return s
	}
	s = ansi.Strip(s)
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r == '\n':
			b.WriteByte('\n')
		case r == '\t' && keepTabs:
			b.WriteByte('\t')
		case r == '\t':
			b.WriteString("    ")
		case unicode.IsControl(r):
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Fit cuts a (possibly styled) line to width cells, marking the cut, so
// no component draws past the terminal's edge. A line of no more bytes
// than cells fits without measuring: no character takes more cells than
// bytes.
func Fit(line string, width int) string {
	if len(line) <= width || ansi.StringWidth(line) <= width {
		return line
	}
	return ansi.Truncate(line, max(width, 0), "…")
}

// Wrap breaks plain text into lines of at most width cells, at spaces
// where it can and mid-word where it must, so nothing is lost to a cut.
func Wrap(s string, width int) string {
	return ansi.Wrap(s, max(width, 1), "")
}
