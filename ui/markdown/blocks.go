package markdown

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/ui/markdown/parse"
)

// bullets mark list items by depth, cycling past the third level.
var bullets = [...]string{"•", "◦", "▪"}

// blockLines draws one block at width; depth counts the lists it sits in,
// which picks its bullet.
func (r *Renderer) blockLines(n parse.Block, width, depth int) []string {
	width = max(width, 1)
	switch n := n.(type) {
	case *parse.Heading:
		st := r.st.heading
		if n.Level == 1 {
			st = r.st.heading1
		}
		spans := append([]span{{strings.Repeat("#", n.Level) + " ", st}}, r.runs(parse.Inlines(n.Text), st)...)
		return wrapText(spans, width)
	case *parse.Paragraph:
		if rows, ok := tableRows(n.Lines); ok {
			return r.table(rows, width)
		}
		return wrapText(r.runs(parse.Inlines(n.Text()), r.st.text), width)
	case *parse.ThematicBreak:
		return []string{paint([]span{{strings.Repeat("─", width), r.st.rule}})}
	case *parse.CodeBlock:
		return r.code(n.Lines, width)
	case *parse.Quote:
		return r.quote(n.Blocks, width, depth)
	case *parse.List:
		return r.list(n, width, depth)
	case *parse.HTMLBlock:
		var spans []span
		for _, line := range n.Lines {
			spans = append(spans, span{line, r.st.url}, span{"\n", ""})
		}
		return trimBlank(wrapText(spans, width))
	}
	return nil
}

// children draws blocks one after another, with a blank line between
// them unless the list they belong to is tight.
func (r *Renderer) children(blocks []parse.Block, width, depth int, tight bool) []string {
	var out []string
	for i, c := range blocks {
		if i > 0 && !tight {
			out = append(out, "")
		}
		out = append(out, r.blockLines(c, width, depth)...)
	}
	return out
}

// code draws a code block as written, indented and in the code colour.
// Lines are not wrapped at spaces; one wider than the room goes on under
// a ↪ mark, so nothing of it is lost.
func (r *Renderer) code(lines []string, width int) []string {
	const indent = "  "
	room := max(width-len(indent), 1)
	var out []string
	for _, line := range lines {
		line = strings.TrimRight(line, " ")
		lead := span{indent, ""}
		for {
			if cells(line) <= room {
				out = append(out, paint([]span{lead, {line, r.st.codeBlock}}))
				break
			}
			head := ansi.Truncate(line, room, "")
			if head == "" {
				_, size := utf8.DecodeRuneInString(line)
				head = line[:size]
			}
			out = append(out, paint([]span{lead, {head, r.st.codeBlock}}))
			line, lead = line[len(head):], span{"↪ ", r.st.rule}
		}
	}
	for i, l := range out {
		if strings.TrimSpace(ansi.Strip(l)) == "" {
			out[i] = ""
		}
	}
	if len(out) == 0 {
		out = []string{""}
	}
	return out
}

// quote draws a block quote behind a bar, its text in the quote style.
func (r *Renderer) quote(blocks []parse.Block, width, depth int) []string {
	inner := *r
	inner.st.text = r.st.quote
	lines := inner.children(blocks, width-2, depth, false)
	bar := paint([]span{{"│ ", r.st.rule}})
	if len(lines) == 0 {
		lines = []string{""}
	}
	for i, l := range lines {
		lines[i] = strings.TrimRight(bar+l, " ")
	}
	return lines
}

// list draws each item behind its bullet or number; the item's further
// lines hang under its first.
func (r *Renderer) list(n *parse.List, width, depth int) []string {
	markers := make([]string, 0, len(n.Items))
	widest := 0
	for i := range n.Items {
		m := bullets[depth%len(bullets)]
		if n.Ordered {
			m = strconv.Itoa(n.Start+i) + string(n.Marker)
		}
		markers = append(markers, m)
		widest = max(widest, cells(m))
	}
	var out []string
	for i, item := range n.Items {
		if i > 0 && !n.Tight {
			out = append(out, "")
		}
		m := markers[i]
		if n.Ordered {
			m = strings.Repeat(" ", widest-cells(m)) + m
		}
		hang := strings.Repeat(" ", widest+1)
		body := r.children(item.Blocks, width-widest-1, depth+1, n.Tight)
		if len(body) == 0 {
			body = []string{""}
		}
		for j, l := range body {
			prefix := hang
			if j == 0 {
				prefix = paint([]span{{m, r.st.marker}}) + " "
			}
			if l == "" && j > 0 {
				out = append(out, "")
				continue
			}
			out = append(out, prefix+l)
		}
	}
	return out
}

// trimBlank drops blank lines at the end of lines.
func trimBlank(lines []string) []string {
	for len(lines) > 0 && strings.TrimSpace(ansi.Strip(lines[len(lines)-1])) == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}
