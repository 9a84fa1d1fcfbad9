package parse

import "strings"

// pieceKind is what a piece of a paragraph's inlines is while they are
// read.
type pieceKind uint8

const (
	pieceText     pieceKind = iota // source text, decoded when read out
	pieceNode                      // a finished inline
	pieceDelim                     // a run of * or _ that may open or close emphasis
	pieceBracket                   // a [ or ![ that may open a link or an image
	pieceEmphasis                  // a matched pair of runs, around sub
	pieceLink                      // a link or image, around sub
)

// piece is one piece of the inlines being read, in a doubly linked list
// so that emphasis and links can gather the pieces between their ends.
type piece struct {
	prev, next *piece
	kind       pieceKind
	text       string // a text's source; a run's or bracket's characters
	brk        Break  // a text's line break
	node       Inline // a finished inline
	sub        pieces // an emphasis's or link's children
	strong     bool   // an emphasis of two characters

	// A run's character, its length left and as read, whether it can
	// open or close, and its neighbours among the runs still open.
	char                 byte
	length, orig         int
	canOpen, canClose    bool
	prevDelim, nextDelim *piece

	// A bracket's kind, the last run before it and how many links were
	// made before it; a link's or image's destination and title.
	image       bool
	bottom      *piece
	linksBefore int
	dest, title string
}

// pieces is a list of pieces.
type pieces struct{ first, last *piece }

// push adds p at the end.
func (l *pieces) push(p *piece) {
	p.prev, p.next = l.last, nil
	if l.last != nil {
		l.last.next = p
	} else {
		l.first = p
	}
	l.last = p
}

// remove takes p out.
func (l *pieces) remove(p *piece) {
	if p.prev != nil {
		p.prev.next = p.next
	} else {
		l.first = p.next
	}
	if p.next != nil {
		p.next.prev = p.prev
	} else {
		l.last = p.prev
	}
	p.prev, p.next = nil, nil
}

// insertAfter puts p after at.
func (l *pieces) insertAfter(at, p *piece) {
	p.prev, p.next = at, at.next
	if at.next != nil {
		at.next.prev = p
	} else {
		l.last = p
	}
	at.next = p
}

// cut moves the pieces strictly between from and to into a list of
// their own.
func (l *pieces) cut(from, to *piece) pieces {
	var out pieces
	for c := from.next; c != nil && c != to; {
		next := c.next
		l.remove(c)
		out.push(c)
		c = next
	}
	return out
}

// inlines reads the list out as inlines, decoding texts and joining
// neighbouring ones.
func (l *pieces) inlines() []Inline {
	var out []Inline
	var text strings.Builder // the text being joined, not yet in out
	joining := false
	end := func(brk Break) {
		if joining && (text.Len() > 0 || brk != NoBreak) {
			out = append(out, &Text{Text: text.String(), Break: brk})
		}
		text.Reset()
		joining = false
	}
	for p := l.first; p != nil; p = p.next {
		switch p.kind {
		case pieceNode:
			end(NoBreak)
			out = append(out, p.node)
		case pieceEmphasis:
			end(NoBreak)
			out = append(out, &Emphasis{Strong: p.strong, Children: p.sub.inlines()})
		case pieceLink:
			end(NoBreak)
			if p.image {
				out = append(out, &Image{Destination: p.dest, Title: p.title, Children: p.sub.inlines()})
			} else {
				out = append(out, &Link{Destination: p.dest, Title: p.title, Children: p.sub.inlines()})
			}
		default:
			joining = true
			switch p.kind {
			case pieceText:
				text.WriteString(decode(p.text))
			case pieceDelim:
				for range p.length {
					text.WriteByte(p.char)
				}
			default:
				text.WriteString(p.text)
			}
			if p.brk != NoBreak {
				end(p.brk)
			}
		}
	}
	end(NoBreak)
	return out
}
