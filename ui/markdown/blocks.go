package markdown

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/yuin/goldmark/ast"
)

// bullets mark list items by depth, cycling past the third level.
var bullets = []string{"•", "◦", "▪"}

// blockLines draws one block node at width; depth counts the lists it
// sits in, which picks its bullet.
func (r *Renderer) blockLines(n ast.Node, src []byte, width, depth int) []string {
	width = max(width, 1)
	switch n := n.(type) {
	case *ast.Heading:
		st := r.st.heading
		if n.Level == 1 {
			st = r.st.heading1
		}
		spans := append([]span{{strings.Repeat("#", n.Level) + " ", st}}, r.runs(n, src, st)...)
		return wrapText(spans, width)
	case *ast.Paragraph, *ast.TextBlock:
		if rows, ok := tableRows(n, src); ok {
			return r.table(rows, width)
		}
		return wrapText(r.runs(n, src, r.st.text), width)
	case *ast.ThematicBreak:
		return []string{paint([]span{{strings.Repeat("─", width), r.st.rule}})}
	case *ast.FencedCodeBlock, *ast.CodeBlock:
		return r.code(n, src, width)
	case *ast.Blockquote:
		return r.quote(n, src, width, depth)
	case *ast.List:
		return r.list(n, src, width, depth)
	case *ast.HTMLBlock:
		var spans []span
		for i := range n.Lines().Len() {
			line := n.Lines().At(i)
			spans = append(spans, span{strings.TrimRight(string(line.Value(src)), "\n"), r.st.url}, span{"\n", ""})
		}
		if n.HasClosure() {
			spans = append(spans, span{strings.TrimRight(string(n.ClosureLine.Value(src)), "\n"), r.st.url})
		}
		return trimBlank(wrapText(spans, width))
	}
	return r.children(n, src, width, depth, false)
}

// children draws a container's blocks one after another, with a blank
// line between them unless the list they belong to is tight.
func (r *Renderer) children(n ast.Node, src []byte, width, depth int, tight bool) []string {
	var out []string
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if c != n.FirstChild() && !tight {
			out = append(out, "")
		}
		out = append(out, r.blockLines(c, src, width, depth)...)
	}
	return out
}

// code draws a code block as written, indented and in the code colour.
// Lines are not wrapped at spaces; one wider than the room goes on under
// a ↪ mark, so nothing of it is lost.
func (r *Renderer) code(n ast.Node, src []byte, width int) []string {
	const indent = "  "
	room := max(width-len(indent), 1)
	var out []string
	for i := range n.Lines().Len() {
		seg := n.Lines().At(i)
		line := strings.TrimRight(string(seg.Value(src)), "\r\n")
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
func (r *Renderer) quote(n ast.Node, src []byte, width, depth int) []string {
	inner := *r
	inner.st.text = r.st.quote
	lines := inner.children(n, src, width-2, depth, false)
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
func (r *Renderer) list(n *ast.List, src []byte, width, depth int) []string {
	markers := make([]string, 0, n.ChildCount())
	widest := 0
	for i := range n.ChildCount() {
		m := bullets[depth%len(bullets)]
		if n.IsOrdered() {
			m = strconv.Itoa(n.Start+i) + string(n.Marker)
		}
		markers = append(markers, m)
		widest = max(widest, cells(m))
	}
	var out []string
	i := 0
	for item := n.FirstChild(); item != nil; item = item.NextSibling() {
		if i > 0 && !n.IsTight {
			out = append(out, "")
		}
		m := markers[i]
		if n.IsOrdered() {
			m = strings.Repeat(" ", widest-cells(m)) + m
		}
		hang := strings.Repeat(" ", widest+1)
		body := r.children(item, src, width-widest-1, depth+1, n.IsTight)
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
		i++
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
