package ui

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// wrap breaks plain text into lines of at most width cells, at spaces
// where it can and mid-word where it must.
func wrap(s string, width int) []string {
	width = max(width, 1)
	return strings.Split(ansi.Wrap(s, width, ""), "\n")
}

// fit cuts a (possibly styled) line to width cells, marking the cut. A
// line of no more bytes than cells fits without measuring: no character
// takes more cells than bytes; nor does a line of plain ASCII and colours
// need the grapheme segmentation that makes measuring costly, and every
// line of every frame is fitted.
func fit(line string, width int) string {
	if len(line) <= width {
		return line
	}
	w, ok := asciiWidth(line)
	if !ok {
		w = ansi.StringWidth(line)
	}
	if w <= width {
		return line
	}
	return ansi.Truncate(line, max(width, 0), "…")
}

// asciiWidth is the width of a line of printable ASCII and CSI sequences
// (colours, styles), one cell a byte; ok is false for anything else,
// which only a full measure gets right.
func asciiWidth(s string) (width int, ok bool) {
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
		default:
			return 0, false
		}
	}
	return width, true
}

// gutter prefixes lines with first before the first line and a blank of
// the same width before the others, so wrapped text hangs under its mark.
func gutter(lines []string, first string) []string {
	pad := strings.Repeat(" ", ansi.StringWidth(first))
	out := make([]string, len(lines))
	for i, line := range lines {
		if i == 0 {
			out[i] = first + line
		} else {
			out[i] = pad + line
		}
	}
	return out
}

// paint styles each line on its own, so a line cut later keeps its colour.
func paint(lines []string, style lipgloss.Style) []string {
	for i, line := range lines {
		lines[i] = style.Render(line)
	}
	return lines
}

// plural writes a count with its noun, the one way every part of baton
// counts ("1 line", "3 lines").
func plural(n int, noun string) string { return event.Plural(n, noun) }
