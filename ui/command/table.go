package command

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/themes"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// Table is a titled table for the conversation, such as /subagents'. It
// is laid out at the width it is drawn at: on a narrow terminal the
// columns named in Shrink give up room, or are left out, in order, so
// the others stay whole.
type Table struct {
	Title  string
	Rows   [][]string // the first is the heading
	Shrink []ShrinkStep
}

// ShrinkStep narrows column Col, down to Min cells at most; with Drop it
// leaves the column out instead.
type ShrinkStep struct {
	Col, Min int
	Drop     bool
}

// Lines draws the table at width: its title, then the rows aligned in
// columns two spaces apart, the heading in bold.
func (t Table) Lines(styles *themes.Styles, width int) []string {
	widths := columnWidths(t.Rows)
	total := 2 * (len(widths) - 1)
	for _, w := range widths {
		total += w
	}
	for _, step := range t.Shrink {
		over := total + 2 - width
		if over <= 0 || step.Col >= len(widths) || widths[step.Col] < 0 {
			continue
		}
		if step.Drop {
			total -= widths[step.Col] + 2
			widths[step.Col] = dropped
			continue
		}
		cut := min(over, max(widths[step.Col]-step.Min, 0))
		widths[step.Col] -= cut
		total -= cut
	}
	st := styles.Conversation
	lines := []string{st.AssistantLabel.Render(t.Title)}
	for i, line := range alignRows(t.Rows, widths) {
		style := st.Info
		if i == 0 {
			style = st.Info.Bold(true)
		}
		lines = append(lines, termtext.Fit("  "+style.Render(line), width))
	}
	return lines
}

// dropped is the width of a column left out.
const dropped = -1

// align lays rows out in columns two spaces apart, measured in cells.
func align(rows [][]string) string {
	return strings.Join(alignRows(rows, columnWidths(rows)), "\n")
}

// columnWidths is the widest cell of each column.
func columnWidths(rows [][]string) []int {
	var widths []int
	for _, row := range rows {
		for i, cell := range row {
			if i == len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], ansi.StringWidth(cell))
		}
	}
	return widths
}

// alignRows pads each cell to its column's width, cutting the cells that
// are wider and leaving out the dropped columns.
func alignRows(rows [][]string, widths []int) []string {
	out := make([]string, len(rows))
	for r, row := range rows {
		var cells []string
		for i, cell := range row {
			if widths[i] == dropped {
				continue
			}
			cell = ansi.Truncate(termtext.Clean(cell), widths[i], "…")
			cells = append(cells, cell+strings.Repeat(" ", widths[i]-ansi.StringWidth(cell)))
		}
		out[r] = strings.TrimRight(strings.Join(cells, "  "), " ")
	}
	return out
}
