// Package termtext makes untrusted text (from a model, a tool or an agent
// file) safe to draw in a terminal. The root UI and the panes share it so
// both strip the same things.
package termtext

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

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

// Visible spells out what would not show or would act on the terminal:
// control characters (escapes, tabs, newlines) and invisible formatting
// (zero-width, bidirectional overrides) become Go escapes such as \x1b
// or \u202e, so text a person approves as it will run hides nothing.
func Visible(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r < 0x80 && unicode.IsControl(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case unicode.IsControl(r) || unicode.Is(unicode.Cf, r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Fit cuts a (possibly styled) line to width cells, marking the cut, so
// no component draws past the terminal's edge. A line of no more bytes
// than cells fits without measuring: no character takes more cells than
// bytes; nor does a line of plain ASCII and colours need the grapheme
// segmentation that makes measuring costly, and every line of every
// frame is fitted.
func Fit(line string, width int) string {
	if len(line) <= width || Width(line) <= width {
		return line
	}
	return ansi.Truncate(line, max(width, 0), "…")
}

// Width is how many cells a (possibly styled) line takes. A line of
// printable ASCII, colours and the narrow symbols a UI draws with (see
// narrow) is measured a byte or a rune at a time; anything else takes the
// grapheme segmentation, which costs ten times as much and every frame
// measures lines.
func Width(line string) int {
	if w, ok := quickWidth(line); ok {
		return w
	}
	return ansi.StringWidth(line)
}

// Blank says whether a (possibly styled) line shows nothing but spaces.
func Blank(line string) bool {
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case c == ' ':
		case c == 0x1b && i+1 < len(line) && line[i+1] == '[':
			i += 2
			for i < len(line) && line[i] >= 0x20 && line[i] <= 0x3f {
				i++
			}
			if i >= len(line) || line[i] < 0x40 || line[i] > 0x7e {
				return strings.TrimSpace(ansi.Strip(line)) == ""
			}
		case c >= 0x21 && c < 0x7f:
			return false
		default: // other escapes, other spaces
			return strings.TrimSpace(ansi.Strip(line)) == ""
		}
	}
	return true
}

// quickWidth is the width of a line of printable ASCII, CSI sequences
// (colours, styles) and narrow runes, one cell each; ok is false for
// anything else, which only a full measure gets right.
func quickWidth(s string) (width int, ok bool) {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 0x20 && c < 0x7f:
			width++
		case c == 0x1b && i+1 < len(s) && s[i+1] == '[':
			i += 2
			for i < len(s) && s[i] >= 0x20 && s[i] <= 0x3f { // parameters and intermediates
				i++
			}
			if i >= len(s) || s[i] < 0x40 || s[i] > 0x7e { // no final byte
				return 0, false
			}
		case c >= 0x80:
			r, size := utf8.DecodeRuneInString(s[i:])
			if !Narrow(r) {
				return 0, false
			}
			width++
			i += size - 1
		default:
			return 0, false
		}
	}
	return width, true
}

// narrowRunes are runes one cell wide that never join a neighbour in a
// grapheme cluster (no combining marks, joiners, variation selectors,
// emoji): Latin, Greek and Cyrillic letters, punctuation, arrows,
// mathematical and technical symbols, box drawing, shapes, dingbats and
// braille, the UI's marks and spinners. A test holds each one to what the
// full measure says, alone and between two letters.
var narrowRunes = [...][2]rune{
	{0xa0, 0xac}, {0xae, 0x2ff}, {0x370, 0x482}, {0x48a, 0x4ff},
	{0x2010, 0x2027}, {0x202f, 0x205e}, {0x2190, 0x2319}, {0x231c, 0x2328},
	{0x232b, 0x23e8}, {0x23ed, 0x23ef}, {0x23f1, 0x23f2}, {0x23f4, 0x23ff},
	{0x2500, 0x25fc}, {0x25ff, 0x25ff}, {0x2694, 0x26a0}, {0x270c, 0x2727},
	{0x2800, 0x28ff},
}

// Narrow says whether r is one cell wide and never joins a neighbour in
// a grapheme cluster (see narrowRunes), so a line of such runes is as
// many cells wide as it has runes.
func Narrow(r rune) bool {
	for _, rg := range narrowRunes {
		if r < rg[0] {
			return false
		}
		if r <= rg[1] {
			return true
		}
	}
	return false
}

// Wrap breaks plain text into lines of at most width cells, at spaces
// where it can and mid-word where it must, so nothing is lost to a cut.
func Wrap(s string, width int) string {
	return ansi.Wrap(s, max(width, 1), "")
}

// Path is a folder as the person reads it: the home folder shortened to
// "~", the rest cleaned.
func Path(dir string) string {
	if dir == "" {
		dir = "."
	}
	if home, err := os.UserHomeDir(); err == nil && home != "" {
		if rel, err := filepath.Rel(home, dir); err == nil && !strings.HasPrefix(rel, "..") && filepath.IsAbs(dir) {
			return Clean(filepath.Join("~", rel))
		}
	}
	return Clean(dir)
}
