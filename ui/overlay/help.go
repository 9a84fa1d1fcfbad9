package overlay

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"

	"github.com/seed-e4e525a6/baton/themes"
)

// KeyGroup is a set of keys named by where they apply, so the help reads
// "card: y allow once", not one flat list.
type KeyGroup struct {
	Where string
	Keys  []key.Binding
}

// FullHelp lays groups out in columns under their names, starting a new
// row of columns where the next would not fit in width, so no key is
// cut off.
func FullHelp(groups []KeyGroup, styles *themes.Styles, width int) []string {
	var lines, row []string
	for _, g := range groups {
		column := helpColumn(g, styles)
		if joined := joinColumns(row, column); row == nil || lipgloss.Width(joined[0]) <= width {
			row = joined
			continue
		}
		lines, row = append(lines, row...), column
	}
	return append(lines, row...)
}

// helpColumn draws a group: its name, then a key and its meaning a line.
func helpColumn(g KeyGroup, styles *themes.Styles) []string {
	st := styles.Help
	keyWidth := 0
	for _, b := range g.Keys {
		keyWidth = max(keyWidth, lipgloss.Width(b.Help().Key))
	}
	lines := []string{st.Sep.Render(g.Where)}
	for _, b := range g.Keys {
		h := b.Help()
		lines = append(lines, st.Key.Render(h.Key+strings.Repeat(" ", keyWidth-lipgloss.Width(h.Key)))+" "+st.Desc.Render(h.Desc))
	}
	return lines
}

// joinColumns puts column to the right of row, padding both to equal
// height and row's lines to equal width.
func joinColumns(row, column []string) []string {
	if row == nil {
		return column
	}
	return strings.Split(lipgloss.JoinHorizontal(lipgloss.Top, strings.Join(row, "\n"), "    ", strings.Join(column, "\n")), "\n")
}
