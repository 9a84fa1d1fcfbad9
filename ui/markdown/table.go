package markdown

import (
	"strings"

	"github.com/seed-e4e525a6/baton/ui/markdown/parse"
)

// table is a pipe table found in a paragraph: the source of each cell by
// row, the header first, and each column's alignment ('l', 'r', 'c').
type table struct {
	rows  [][]string
	align []byte
}

// tableRows reads a paragraph's lines as a GitHub pipe table: a header
// row, a delimiter row of dashes with as many cells, then body rows.
func tableRows(lines []string) (table, bool) {
	if len(lines) < 2 {
		return table{}, false
	}
	line := func(i int) string { return strings.TrimSpace(lines[i]) }
	head, delim := line(0), line(1)
	if !strings.Contains(head, "|") {
		return table{}, false
	}
	header, dashes := cellsOf(head), cellsOf(delim)
	if len(header) != len(dashes) {
		return table{}, false
	}
	t := table{align: make([]byte, len(dashes))}
	for i, d := range dashes {
		core := strings.Trim(d, ":")
		if core == "" || strings.Trim(core, "-") != "" || len(d)-len(core) > 2 {
			return table{}, false
		}
		switch left, right := d[0] == ':', d[len(d)-1] == ':'; {
		case left && right:
			t.align[i] = 'c'
		case right:
			t.align[i] = 'r'
		default:
			t.align[i] = 'l'
		}
	}
	t.rows = append(t.rows, header)
	for i := 2; i < len(lines); i++ {
		row := cellsOf(line(i))
		row = append(row, make([]string, max(len(header)-len(row), 0))...)
		t.rows = append(t.rows, row[:len(header)])
	}
	return t, true
}

// cellsOf splits a table row at the pipes that are neither escaped nor
// inside a code span, dropping the optional outer pipes.
func cellsOf(row string) []string {
	var cells []string
	start, ticks := 0, 0
	for i := 0; i < len(row); i++ {
		switch c := row[i]; {
		case c == '\\':
			i++
		case c == '`':
			ticks ^= 1
		case c == '|' && ticks == 0:
			cells = append(cells, row[start:i])
			start = i + 1
		}
	}
	cells = append(cells, row[start:])
	if strings.HasPrefix(row, "|") {
		cells = cells[1:]
	}
	if len(cells) > 1 && strings.HasSuffix(row, "|") && !strings.HasSuffix(row, "\\|") {
		cells = cells[:len(cells)-1]
	}
	for i := range cells {
		cells[i] = strings.TrimSpace(cells[i])
	}
	return cells
}

// table draws t in columns as wide as their widest cell; when the room is
// short the widest columns give way and their cells wrap.
func (r *Renderer) table(t table, width int) []string {
	cols := len(t.align)
	cellSpans := make([][][]span, len(t.rows))
	widths := make([]int, cols)
	for i, row := range t.rows {
		base := r.st.text
		if i == 0 {
			base += r.st.tableHeader
		}
		cellSpans[i] = make([][]span, cols)
		for j, c := range row {
			cellSpans[i][j] = r.cell(c, base)
			widths[j] = max(widths[j], cells(plain(cellSpans[i][j])), 1)
		}
	}
	avail := width - 3*(cols-1)
	for total := sum(widths); total > avail; total-- {
		widest := 0
		for j, w := range widths {
			if w > widths[widest] {
				widest = j
			}
		}
		if widths[widest] <= 1 {
			break
		}
		widths[widest]--
	}
	sep := paint([]span{{" │ ", r.st.rule}})
	var out []string
	for i, row := range cellSpans {
		wrapped := make([][][]span, cols)
		height := 1
		for j, spans := range row {
			wrapped[j] = wrap(spans, widths[j])
			height = max(height, len(wrapped[j]))
		}
		for k := range height {
			parts := make([]string, cols)
			for j := range cols {
				var line []span
				if k < len(wrapped[j]) {
					line = wrapped[j][k]
				}
				parts[j] = align(paint(line), cells(plain(line)), widths[j], t.align[j])
			}
			out = append(out, strings.TrimRight(strings.Join(parts, sep), " "))
		}
		if i == 0 {
			rules := make([]string, cols)
			for j, w := range widths {
				rules[j] = strings.Repeat("─", w)
			}
			out = append(out, paint([]span{{strings.Join(rules, "─┼─"), r.st.rule}}))
		}
	}
	return out
}

// cell parses one cell's inline Markdown; a cell that reads as another
// block (a heading, a list item) is drawn as written.
func (r *Renderer) cell(src string, base style) []span {
	doc := parse.Parse(src)
	if len(doc.Blocks) == 1 {
		if p, ok := doc.Blocks[0].(*parse.Paragraph); ok {
			return r.runs(parse.Inlines(p.Text()), base)
		}
	}
	return []span{{src, base}}
}

// align pads a painted cell of w cells to width by its column's alignment.
func align(s string, w, width int, how byte) string {
	gap := max(width-w, 0)
	switch how {
	case 'r':
		return strings.Repeat(" ", gap) + s
	case 'c':
		return strings.Repeat(" ", gap/2) + s + strings.Repeat(" ", gap-gap/2)
	}
	return s + strings.Repeat(" ", gap)
}

// sum adds up ints.
func sum(xs []int) int {
	total := 0
	for _, x := range xs {
		total += x
	}
	return total
}
