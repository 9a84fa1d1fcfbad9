package themes

import (
	"strconv"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// ForProfile converts a palette's hex colours once to what the terminal's
// colour profile can show: the nearest of 256 or 16 colours, or none. A
// style then renders an index the renderer reads as is, instead of
// searching the nearest colour on every render, which cost eight live
// panes a seventh of their time. True-colour terminals keep the hex.
func ForProfile(p Palette, profile termenv.Profile) Palette {
	conv := func(c lipgloss.TerminalColor) lipgloss.TerminalColor { return convert(c, profile) }
	p.Text, p.Muted, p.Accent, p.Border, p.Focus = conv(p.Text), conv(p.Muted), conv(p.Accent), conv(p.Border), conv(p.Focus)
	p.Success, p.Warning, p.Error, p.Busy, p.Code = conv(p.Success), conv(p.Warning), conv(p.Error), conv(p.Busy), conv(p.Code)
	agents := make([]lipgloss.TerminalColor, len(p.Agents))
	for i, c := range p.Agents {
		agents[i] = conv(c)
	}
	p.Agents = agents
	return p
}

// convert maps one colour to the profile; colours other than a plain
// lipgloss.Color (adaptive ones) are left to the renderer.
func convert(c lipgloss.TerminalColor, profile termenv.Profile) lipgloss.TerminalColor {
	col, ok := c.(lipgloss.Color)
	if !ok {
		return c
	}
	switch tc := profile.Color(string(col)).(type) {
	case termenv.ANSI256Color:
		return lipgloss.Color(strconv.Itoa(int(tc)))
	case termenv.ANSIColor:
		return lipgloss.Color(strconv.Itoa(int(tc)))
	case termenv.RGBColor:
		return c
	}
	return lipgloss.NoColor{}
}
