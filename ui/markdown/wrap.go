package markdown

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// reset ends every attribute a style switched on.
const reset = "\x1b[0m"

// style is the escape sequence that switches a lipgloss style on. Styles
// nest by concatenation (a strong run inside a quote is the quote's
// sequence then bold), and every styled run ends with a reset, so a line
// never leaks its colour into the gutter or the next line.
type style string

// sequence takes the opening sequence lipgloss writes for st in the
// current colour profile; it is computed once per renderer, not per run.
func sequence(st lipgloss.Style) style {
	out := st.Render("x")
	pre, _, _ := strings.Cut(out, "x")
	return style(pre)
}

// span is a run of text in one style; "\n" alone is a hard line break.
type span struct {
	text string
	st   style
}

// paint writes spans as one line, one escape per change of style.
func paint(spans []span) string {
	var b strings.Builder
	var open style
	for _, s := range spans {
		if s.st != open {
			if open != "" {
				b.WriteString(reset)
			}
			b.WriteString(string(s.st))
			open = s.st
		}
		b.WriteString(s.text)
	}
	if open != "" {
		b.WriteString(reset)
	}
	return b.String()
}

// cells is the width of plain text in terminal cells, without the
// grapheme parser for the ASCII text most answers are made of.
func cells(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return ansi.StringWidth(s)
		}
	}
	return len(s)
}

// piece is a run of one span's text, by offsets, so that the words of one
// span on one line join back into one run without copying.
type piece struct{ span, start, end int }

// wrapper fills lines of at most width cells word by word.
type wrapper struct {
	spans   []span
	width   int
	lines   [][]piece
	cur     []piece
	curW    int
	pending []piece // spaces waiting for the next word on this line
	fresh   bool    // nothing but the text's own indent written yet
}

// wrap breaks spans into lines of at most width cells at spaces; a word
// wider than the line is cut by cells. Spaces at the start of the text
// (an indent) are kept; spaces where a line breaks are dropped.
func wrap(spans []span, width int) [][]span {
	lines := wrapPieces(spans, width)
	out := make([][]span, len(lines))
	for i, line := range lines {
		out[i] = spansOf(spans, line)
	}
	return out
}

// spansOf is a line of pieces as the spans it cuts from spans.
func spansOf(spans []span, line []piece) []span {
	out := make([]span, len(line))
	for j, p := range line {
		out[j] = span{spans[p.span].text[p.start:p.end], spans[p.span].st}
	}
	return out
}

// wrapPieces is wrap's lines as pieces of spans, by offsets.
func wrapPieces(spans []span, width int) [][]piece {
	w := &wrapper{spans: spans, width: max(width, 1), fresh: true}
	for si, s := range spans {
		if s.text == "\n" {
			w.flush()
			continue
		}
		for at := 0; at < len(s.text); {
			rest := s.text[at:]
			i := strings.IndexByte(rest, ' ')
			switch {
			case i == 0:
				j := len(rest) - len(strings.TrimLeft(rest, " "))
				w.space(piece{si, at, at + j})
				at += j
			case i < 0:
				w.word(piece{si, at, len(s.text)})
				at = len(s.text)
			default:
				w.word(piece{si, at, at + i})
				at += i
			}
		}
	}
	if len(w.cur) > 0 || len(w.lines) == 0 {
		w.flush()
	}
	return w.lines
}

// text is a piece's text.
func (w *wrapper) text(p piece) string { return w.spans[p.span].text[p.start:p.end] }

// add puts a piece on the current line, joined to the last one when it
// follows it in the same span.
func (w *wrapper) add(p piece) {
	if n := len(w.cur); n > 0 && w.cur[n-1].span == p.span && w.cur[n-1].end == p.start {
		w.cur[n-1].end = p.end
		return
	}
	w.cur = append(w.cur, p)
}

// space holds spaces until a word follows them on the same line.
func (w *wrapper) space(p piece) {
	if w.fresh && len(w.lines) == 0 {
		w.add(p)
		w.curW += p.end - p.start
		return
	}
	if w.curW > 0 {
		w.pending = append(w.pending, p)
	}
}

// word places a word, breaking the line before it when it does not fit.
func (w *wrapper) word(p piece) {
	sw := cells(w.text(p))
	gap := 0
	for _, s := range w.pending {
		gap += s.end - s.start
	}
	if w.curW > 0 && !w.fresh && w.curW+gap+sw > w.width {
		w.flush()
	} else {
		for _, s := range w.pending {
			w.add(s)
		}
		w.curW += gap
	}
	w.pending, w.fresh = w.pending[:0], false
	// Past each line cut from a long word, what is left is measured by
	// taking the cut's width from it: measuring it whole each time made
	// the word cost its square. Widths need not add up where a cut splits
	// a character's cluster (a wide one in a one-cell line), so the rest
	// is measured whole once it is short, or when it seems to fit.
	for exact := true; ; {
		if w.curW+sw <= w.width {
			if exact {
				break
			}
			sw, exact = cells(w.text(p)), true
			continue
		}
		text := w.text(p)
		head := lineHead(text, w.width-w.curW)
		if head == "" && w.curW > 0 {
			w.flush()
			continue
		}
		if head == "" { // a wide character in a one-cell line
			_, size := utf8.DecodeRuneInString(text)
			head = text[:size]
		}
		w.add(piece{p.span, p.start, p.start + len(head)})
		w.flush()
		p.start += len(head)
		if rest := w.text(p); len(rest) <= 4*w.width+64 {
			sw, exact = cells(rest), true
		} else {
			sw, exact = sw-cells(head), false
		}
	}
	if p.start < p.end {
		w.add(p)
		w.curW += sw
	}
}

// lineHead is the longest start of text that fits in room cells, cut
// between characters. It measures a stretch of text a little longer than
// room could hold rather than all of it: a word of 100 KB (a minified
// line, base64) is cut into thousands of lines, and measuring the rest
// of it for each made drawing it cost its square.
func lineHead(text string, room int) string {
	if stretch := 4*room + 64; stretch < len(text) {
		// Past the stretch's end a cluster may have been cut; a head
		// that stops short of it was cut where the whole text is.
		if head := ansi.Truncate(text[:stretch], room, ""); len(head) < stretch-16 {
			return head
		}
	}
	return ansi.Truncate(text, room, "")
}

// flush ends the current line.
func (w *wrapper) flush() {
	w.lines = append(w.lines, w.cur)
	w.cur, w.curW, w.pending, w.fresh = nil, 0, w.pending[:0], false
}

// wrapText wraps spans and paints each line.
func wrapText(spans []span, width int) []string {
	lines := wrap(spans, width)
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = paint(l)
	}
	return out
}
