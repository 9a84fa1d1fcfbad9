// Package parse reads Markdown into a tree of small node types: the
// blocks of CommonMark (headings, paragraphs, code blocks, block quotes,
// lists, thematic breaks, HTML blocks) and, on demand, the inlines of a
// paragraph or heading (code spans, emphasis, links, images, autolinks,
// raw HTML, line breaks). It is the parser ui/markdown draws from.
//
// It reads what a terminal draws and no more: link reference definitions
// are left as text (resolving them would let a later block change how an
// earlier one is drawn), there are no extensions (tables are found by the
// renderer in a paragraph's lines), and the text it is given is expected
// cleaned of control characters, as termtext.Clean leaves it: a tab counts
// as one column of space.
//
// Blocks are parsed eagerly and inlines lazily (Inlines), so a streaming
// message that is split into blocks at every delta pays for the inline
// parse of a block only when it is drawn. Nothing is built at package
// initialisation: no tables, no regular expressions.
package parse

// Document is a parsed text: its top-level blocks in order, and for each
// the byte offset in the text of the line it starts on.
type Document struct {
	Blocks []Block
	Starts []int
}

// Parse reads src into its blocks.
func Parse(src string) Document {
	p := newParser()
	for at := 0; at < len(src); {
		end := len(src)
		next := end
		if i := indexNewline(src[at:]); i >= 0 {
			end, next = at+i, at+i+1
		}
		p.final = end == len(src)
		p.addLine(src[at:end], at)
		at = next
	}
	return p.finish()
}

// indexNewline is the index of the first newline in s, or -1.
func indexNewline(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			return i
		}
	}
	return -1
}
