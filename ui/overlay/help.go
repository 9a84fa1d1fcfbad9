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
	var lines []string
	for _, row := range helpRows(groups, width) {
		var joined []string
		for _, g := range row {
			joined = joinColumns(joined, helpColumn(g, styles))
		}
		lines = append(lines, joined...)
	}
	return lines
}

// FullHelpHeight is how many lines FullHelp takes at width, computed from
// the keys' widths without drawing them, for the layout.
func FullHelpHeight(groups []KeyGroup, width int) int {
	n := 0
	for _, row := range helpRows(groups, width) {
		tallest := 0
		for _, g := range row {
			tallest = max(tallest, 1+len(g.Keys))
		}
		n += tallest
	}
	return n
}

// helpRows splits groups into rows of columns that fit in width, side
// by side with a gap of columnGap; a column wider than width has a row
// of its own.
func helpRows(groups []KeyGroup, width int) [][]KeyGroup {
	var rows [][]KeyGroup
	used := 0
	for _, g := range groups {
		w := columnWidth(g)
		if n := len(rows); n > 0 && used+len(columnGap)+w <= width {
			rows[n-1] = append(rows[n-1], g)
			used += len(columnGap) + w
			continue
		}
		rows, used = append(rows, []KeyGroup{g}), w
	}
	return rows
}

// columnGap separates the columns of a row.
const columnGap = "    "

// columnWidth is the width helpColumn draws g at: its name, or its
// widest key padded to the others and its meaning.
func columnWidth(g KeyGroup) int {
	keyWidth, descWidth := 0, 0
	for _, b := range g.Keys {
		keyWidth = max(keyWidth, lipgloss.Width(b.Help().Key))
		descWidth = max(descWidth, lipgloss.Width(b.Help().Desc))
	}
	if len(g.Keys) == 0 {
		return lipgloss.Width(g.Where)
	}
	return max(lipgloss.Width(g.Where), keyWidth+1+descWidth)
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
	return strings.Split(lipgloss.JoinHorizontal(lipgloss.Top, strings.Join(row, "\n"), columnGap, strings.Join(column, "\n")), "\n")
}
