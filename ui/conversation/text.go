package conversation

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

// gutterCache is gutter for lines drawn again and again as they grow (a
// streaming answer, every frame): a line the same as last time keeps the
// string made for it then, so a frame joins only the lines that changed,
// and what is drawn from them can tell at a glance that they did not.
type gutterCache struct {
	first      string
	from, made []string
}

// draw is gutter(lines, first), reusing what the last call made.
func (g *gutterCache) draw(lines []string, first string) []string {
	if first != g.first {
		*g = gutterCache{first: first}
	}
	pad := ""
	out := make([]string, len(lines))
	for i, line := range lines {
		if i < len(g.from) && g.from[i] == line {
			out[i] = g.made[i]
			continue
		}
		if i == 0 {
			out[i] = first + line
			continue
		}
		if pad == "" {
			pad = strings.Repeat(" ", ansi.StringWidth(first))
		}
		out[i] = pad + line
	}
	g.from, g.made = lines, out
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
