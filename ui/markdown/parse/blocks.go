package parse

import "strings"

// kind is what an open block is while its lines are read.
type kind uint8

const (
	kindDocument kind = iota
	kindQuote
	kindList
	kindItem
	kindParagraph
	kindHeading
	kindBreak
	kindFence
	kindIndented
	kindHTML
)

// node is a block being read.
type node struct {
	kind     kind
	parent   *node
	children []*node
	open     bool
	start    int      // offset of the line it starts on
	first    int      // number of that line
	last     int      // number of its last line that was not blank
	lines    []string // a leaf's lines

	level int // a heading's

	// A list's or an item's marker: ordered or not, the bullet or the
	// delimiter after the number, the number; an item's content indent.
	ordered bool
	marker  byte
	number  int
	indent  int

	// A fenced code block's fence: its character, length and indent.
	fence       byte
	fenceLen    int
	fenceIndent int
	info        string

	html int // an HTML block's kind, 1 to 7 (CommonMark's start conditions)
}

// acceptsLines says whether a block takes the lines that reach it as
// its content.
func (n *node) acceptsLines() bool {
	return n.kind == kindParagraph || n.kind == kindFence || n.kind == kindIndented || n.kind == kindHTML
}

// canContain says whether a block can hold a child of kind k.
func (n *node) canContain(k kind) bool {
	switch n.kind {
	case kindDocument, kindQuote, kindItem:
		return k != kindItem
	case kindList:
		return k == kindItem
	}
	return false
}

// lastOpen is the block's last child if it is still open.
func (n *node) lastOpen() *node {
	if len(n.children) == 0 {
		return nil
	}
	if c := n.children[len(n.children)-1]; c.open {
		return c
	}
	return nil
}

// parser reads a document line by line, keeping its open blocks.
type parser struct {
	doc *node
	tip *node // the deepest open block

	// The line being read, its offset in the text and its number, and
	// how far into it the blocks' prefixes have been consumed.
	line   string
	at     int
	number int
	pos    int
	final  bool // the line is the text's last and has no newline

	// Where the next character that is not a space is, how far past pos
	// (the indent), and whether there is none; scannedFrom is the pos it
	// was found from (-1: not yet on this line).
	nonspace    int
	indent      int
	blank       bool
	scannedFrom int

	// noBreakBefore is where on the line a thematic break may start: a
	// line of a thousand list markers ("- - - … x") is a thousand items,
	// and looking for a rule at each must not read the rest of it again.
	noBreakBefore int

	// Whether every open block took this line, and the deepest that did.
	allMatched  bool
	lastMatched *node
}

func newParser() *parser {
	doc := &node{kind: kindDocument, open: true}
	return &parser{doc: doc, tip: doc}
}

// findNonspace finds the next character that is not a space from pos.
// A pos that has not passed the last one found keeps it: the prefixes of
// blocks nested a thousand deep are read a few columns at a time, and
// scanning the rest of the indent again for each would cost the square
// of the depth on every line.
func (p *parser) findNonspace() {
	if p.scannedFrom >= 0 && p.scannedFrom <= p.pos && p.pos <= p.nonspace {
		p.indent = p.nonspace - p.pos
		return
	}
	p.scannedFrom = p.pos
	i := p.pos
	for i < len(p.line) && (p.line[i] == ' ' || p.line[i] == '\t') {
		i++
	}
	p.nonspace, p.indent, p.blank = i, i-p.pos, i == len(p.line)
}

// indented says whether the line, from pos, is indented as code.
func (p *parser) indented() bool { return p.indent >= 4 }

// rest is the line from the next character that is not a space.
func (p *parser) rest() string { return p.line[p.nonspace:] }

// addLine reads one line (without its newline) that starts at offset at.
func (p *parser) addLine(line string, at int) {
	p.line, p.at, p.pos, p.scannedFrom, p.noBreakBefore = line, at, 0, -1, 0
	p.number++

	// The open blocks that this line continues.
	c := p.doc
	p.allMatched = true
	for {
		child := c.lastOpen()
		if child == nil {
			break
		}
		p.findNonspace()
		switch p.continues(child) {
		case continued:
			c = child
			if p.final && p.pos >= len(p.line) && (c.kind == kindQuote || c.kind == kindItem) {
				// The text ends in the prefixes of the blocks it is in: a
				// last line with nothing of its own adds nothing.
				return
			}
			continue
		case finished:
			return
		}
		p.allMatched = false
		break
	}
	p.allMatched = p.allMatched && c == p.tip
	p.lastMatched = c

	// New blocks that start on it.
	opened, fenceOpened := false, false
	for !c.acceptsLines() || c.kind == kindParagraph {
		p.findNonspace()
		if !p.indented() && !mayStartBlock(p.line, p.nonspace) {
			break
		}
		next, leaf := p.startBlock(c)
		if next == nil {
			break
		}
		c, opened = next, true
		fenceOpened = next.kind == kindFence
		if leaf {
			break
		}
	}

	p.findNonspace()
	// A line no block took, which only continues a paragraph, is lazy.
	if !p.allMatched && !p.blank && p.tip.kind == kindParagraph && !opened {
		p.tip.lines = append(p.tip.lines, p.rest())
		p.touch(p.tip)
		return
	}
	p.closeUnmatched()
	switch {
	case fenceOpened:
		// The opening fence is not content.
	case c.kind == kindParagraph:
		if !p.blank {
			c.lines = append(c.lines, p.rest())
			p.touch(c)
		}
	case c.acceptsLines():
		c.lines = append(c.lines, p.line[p.pos:])
		if !p.blank {
			p.touch(c)
		}
		if c.kind == kindHTML && htmlBlockEnds(c.html, p.line[p.pos:]) {
			p.close(c)
		}
	case !p.blank && c.kind != kindHeading && c.kind != kindBreak:
		para := p.add(c, kindParagraph)
		para.lines = append(para.lines, p.rest())
		p.touch(para)
	}
}

// continuation is how an open block takes a line.
type continuation uint8

const (
	continued continuation = iota // the block takes the line
	stopped                       // the line ends the block
	finished                      // the block took the whole line and closed
)

// continues consumes the prefix by which an open block continues on the
// line, if it does.
func (p *parser) continues(n *node) continuation {
	switch n.kind {
	case kindQuote:
		if p.indented() || p.nonspace >= len(p.line) || p.line[p.nonspace] != '>' {
			return stopped
		}
		p.pos = p.nonspace + 1
		if p.pos < len(p.line) && (p.line[p.pos] == ' ' || p.line[p.pos] == '\t') {
			p.pos++
		}
		p.touch(n)
	case kindItem:
		switch {
		case p.blank && len(n.children) == 0:
			return stopped
		case p.blank:
			p.pos = p.nonspace
		case p.indent >= n.indent:
			p.pos += n.indent
		default:
			return stopped
		}
	case kindFence:
		if !p.indented() && closesFence(p.rest(), n.fence, n.fenceLen) {
			p.touch(n)
			p.close(n)
			return finished
		}
		for i := 0; i < n.fenceIndent && p.pos < len(p.line) && p.line[p.pos] == ' '; i++ {
			p.pos++
		}
	case kindIndented:
		switch {
		case p.indented():
			p.pos += 4
		case p.blank:
			p.pos = p.nonspace
		default:
			return stopped
		}
	case kindHTML:
		if p.blank && (n.html == 6 || n.html == 7) {
			return stopped
		}
	case kindParagraph:
		if p.blank {
			return stopped
		}
	case kindHeading, kindBreak:
		return stopped
	}
	return continued
}

// startBlock opens the block that starts at the line's next character
// that is not a space, in c, if one does: the new innermost block, and
// whether it is a leaf (no more blocks start on the line).
func (p *parser) startBlock(c *node) (*node, bool) {
	if p.blank {
		return nil, false
	}
	rest := p.rest()
	if !p.indented() {
		switch {
		case rest[0] == '>':
			p.closeUnmatched()
			p.pos = p.nonspace + 1
			if p.pos < len(p.line) && (p.line[p.pos] == ' ' || p.line[p.pos] == '\t') {
				p.pos++
			}
			return p.add(c, kindQuote), false
		case rest[0] == '#':
			if level, text, ok := atxHeading(rest); ok {
				p.closeUnmatched()
				h := p.add(c, kindHeading)
				h.level, h.lines = level, []string{text}
				p.pos = len(p.line)
				return h, true
			}
		case rest[0] == '`' || rest[0] == '~':
			if n, info, ok := openingFence(rest); ok {
				p.closeUnmatched()
				f := p.add(c, kindFence)
				f.fence, f.fenceLen, f.fenceIndent, f.info = rest[0], n, p.indent, info
				p.pos = len(p.line)
				return f, true
			}
		case rest[0] == '<':
			if k := htmlBlockStart(rest); k > 0 && (k < 7 || (c.kind != kindParagraph && (p.allMatched || p.tip.kind != kindParagraph))) {
				p.closeUnmatched()
				h := p.add(c, kindHTML)
				h.html = k
				return h, true
			}
		}
		if c.kind == kindParagraph && (rest[0] == '=' || rest[0] == '-') {
			if level := setextLevel(rest); level > 0 {
				p.closeUnmatched()
				c.kind, c.level = kindHeading, level
				c.lines = []string{strings.TrimRight(strings.Join(c.lines, "\n"), " \t")}
				p.touch(c)
				p.pos = len(p.line)
				return c, true
			}
		}
		if p.nonspace < p.noBreakBefore {
			// A rule was ruled out further along this line.
		} else if ok, stop := thematicBreak(rest); !ok {
			p.noBreakBefore = p.nonspace + stop
		} else {
			p.closeUnmatched()
			b := p.add(c, kindBreak)
			p.pos = len(p.line)
			return b, true
		}
	}
	if !p.indented() {
		if m, ok := p.listMarker(c); ok {
			p.closeUnmatched()
			if c.kind != kindList || c.ordered != m.ordered || c.marker != m.marker {
				c = p.add(c, kindList)
				c.ordered, c.marker, c.number = m.ordered, m.marker, m.number
			}
			item := p.add(c, kindItem)
			item.ordered, item.marker, item.number, item.indent = m.ordered, m.marker, m.number, m.indent
			p.pos = m.content
			return item, false
		}
	}
	if p.indented() && c.kind != kindParagraph && !p.blank && (p.allMatched || p.tip.kind != kindParagraph) {
		p.closeUnmatched()
		p.pos += 4
		return p.add(c, kindIndented), true
	}
	return nil, false
}

// add opens a block of kind k in c, closing the blocks that cannot hold
// it, and makes it the tip.
func (p *parser) add(c *node, k kind) *node {
	for !c.canContain(k) {
		p.close(c)
		c = c.parent
	}
	n := &node{kind: k, parent: c, open: true, start: p.at, first: p.number}
	c.children = append(c.children, n)
	p.touch(n)
	p.tip = n
	return n
}

// touch marks a block and the blocks it sits in as holding the line.
func (p *parser) touch(n *node) {
	for ; n != nil && n.last != p.number; n = n.parent {
		n.last = p.number
	}
}

// closeUnmatched closes the open blocks the line did not continue.
func (p *parser) closeUnmatched() {
	if p.allMatched {
		return
	}
	for p.tip != p.lastMatched {
		parent := p.tip.parent
		p.close(p.tip)
		p.tip = parent
	}
	p.allMatched = true
}

// close ends a block; the tip moves to its parent if it was the tip.
func (p *parser) close(n *node) {
	if !n.open {
		return
	}
	n.open = false
	switch n.kind {
	case kindParagraph:
		if last := len(n.lines) - 1; last >= 0 {
			n.lines[last] = strings.TrimRight(n.lines[last], " \t")
		}
	case kindIndented:
		for len(n.lines) > 0 && strings.TrimLeft(n.lines[len(n.lines)-1], " \t") == "" {
			n.lines = n.lines[:len(n.lines)-1]
		}
	}
	if p.tip == n {
		p.tip = n.parent
	}
}

// finish closes every open block and builds the document.
func (p *parser) finish() Document {
	for p.tip != nil {
		n := p.tip
		p.close(n)
		p.tip = n.parent
	}
	var d Document
	for _, c := range p.doc.children {
		d.Blocks = append(d.Blocks, c.block())
		d.Starts = append(d.Starts, c.start)
	}
	return d
}
