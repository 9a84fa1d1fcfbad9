package parse

import "unicode"

// emphasis pairs the runs of * and _ after bottom (all, for nil) into
// emphasis, the closest opener first for each closer, by CommonMark's
// rules; the runs left over become text.
func (p *inlineParser) emphasis(bottom *piece) {
	closer := p.firstDelim
	if bottom != nil {
		closer = bottom.nextDelim
	}
	// For each kind of closer (its character, whether it can open, its
	// length modulo 3), the run below which no opener can match it: a
	// closer of that kind found none there, and openers do not change.
	// It keeps a paragraph of many runs from costing their square.
	var floors [2][2][3]*piece
	for closer != nil {
		if !closer.canClose {
			closer = closer.nextDelim
			continue
		}
		floor := &floors[b2i(closer.char == '_')][b2i(closer.canOpen)][closer.orig%3]
		var opener *piece
		consume, candidate := 0, false
		for o := closer.prevDelim; o != nil && o != bottom && o != *floor; o = o.prevDelim {
			if o.canOpen && o.char == closer.char {
				candidate = true
				if consume = consumes(o, closer); consume > 0 {
					opener = o
					break
				}
			}
		}
		if opener == nil {
			*floor = closer.prevDelim
			next := closer.nextDelim
			if !candidate && !closer.canOpen {
				p.dropDelim(closer)
			}
			closer = next
			continue
		}
		opener.length -= consume
		closer.length -= consume
		for d := opener.nextDelim; d != closer; {
			next := d.nextDelim
			p.dropDelim(d)
			d = next
		}
		em := &piece{kind: pieceEmphasis, strong: consume == 2}
		em.sub = p.list.cut(opener, closer)
		p.list.insertAfter(opener, em)
		if opener.length == 0 {
			p.dropDelim(opener)
		}
		if closer.length == 0 {
			next := closer.nextDelim
			p.dropDelim(closer)
			closer = next
		}
	}
	for d := p.lastDelim; d != nil && d != bottom; {
		prev := d.prevDelim
		p.dropDelim(d)
		d = prev
	}
}

// consumes is how many characters an opener and a closer give to the
// emphasis they make: two while both have two, else one; none when the
// rule of three forbids the pair.
func consumes(opener, closer *piece) int {
	if (opener.canClose || closer.canOpen) && (opener.orig+closer.orig)%3 == 0 && closer.orig%3 != 0 {
		return 0
	}
	if opener.length >= 2 && closer.length >= 2 {
		return 2
	}
	return 1
}

// dropDelim takes a run out of the runs still open: what is left of it
// is text.
func (p *inlineParser) dropDelim(d *piece) {
	if d.prevDelim != nil {
		d.prevDelim.nextDelim = d.nextDelim
	} else {
		p.firstDelim = d.nextDelim
	}
	if d.nextDelim != nil {
		d.nextDelim.prevDelim = d.prevDelim
	} else {
		p.lastDelim = d.prevDelim
	}
	d.prevDelim, d.nextDelim = nil, nil
	d.kind = pieceDelim
	d.canOpen, d.canClose = false, false
}

// b2i is 1 for true, 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// isPunct says whether r is punctuation or a symbol, as CommonMark's
// flanking rules read it.
func isPunct(r rune) bool {
	if r < 0x80 {
		return r > ' ' && r < 0x7f && !(r >= '0' && r <= '9') && !(r|0x20 >= 'a' && r|0x20 <= 'z')
	}
	return unicode.IsPunct(r) || unicode.IsSymbol(r)
}

// unicodeSpace says whether r, past ASCII, is white space.
func unicodeSpace(r rune) bool { return unicode.IsSpace(r) }
