package overlay

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/themes"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// Table is a titled table for the conversation, such as /subagents'. It
// is laid out at the width it is drawn at: on a narrow terminal the
// columns named in Shrink give up room, in order, so the others stay
// whole.
type Table struct {
	Title  string
	Rows   [][]string // the first is the heading
	Shrink []ShrinkStep
}

// ShrinkStep narrows column Col, down to Min cells at most.
type ShrinkStep struct{ Col, Min int }

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
		if over <= 0 || step.Col >= len(widths) {
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
// are wider.
func alignRows(rows [][]string, widths []int) []string {
	out := make([]string, len(rows))
	for r, row := range rows {
		var b strings.Builder
		for i, cell := range row {
			cell = ansi.Truncate(termtext.Clean(cell), widths[i], "…")
			b.WriteString(cell)
			if i < len(row)-1 {
				b.WriteString(strings.Repeat(" ", widths[i]-ansi.StringWidth(cell)+2))
			}
		}
		out[r] = b.String()
	}
	return out
}
