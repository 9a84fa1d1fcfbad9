package themes

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
)

// Ink is a style's look as the escape sequences that switch it on and
// off, taken from the style once: painting a line with it costs two
// concatenations, where Style.Render works out the sequences, splits,
// measures and pads on every call, and a frame paints a line many times.
// Paint writes what Render writes; text Render would treat otherwise
// (more than one line, tabs) and styles that do more than colour (a
// padding, a border, a width, underlined spaces) go to Render.
type Ink struct {
	style   lipgloss.Style
	on, off string
	simple  bool
}

// InkOf takes the sequences of st in the current colour profile.
func InkOf(st lipgloss.Style) Ink {
	ink := Ink{style: st}
	out := st.Render("x")
	on, off, found := strings.Cut(out, "x")
	// A style that only colours writes its sequences around any text
	// alike; one that pads, frames or styles spaces apart does not.
	if found && st.Render("a b") == on+"a b"+off && st.Render("") == on+off {
		ink.on, ink.off, ink.simple = on, off, true
	}
	return ink
}

// Paint draws text in the ink's style, as the style's Render does.
func (i Ink) Paint(text string) string {
	if !i.simple || strings.ContainsAny(text, "\n\r\t") {
		return i.style.Render(text)
	}
	return i.on + text + i.off
}
