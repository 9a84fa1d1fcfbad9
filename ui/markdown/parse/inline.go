package parse

import (
	"strings"
	"unicode/utf8"
)

// Inlines reads the inline source of a paragraph or a heading (its lines
// joined by newlines) into inlines.
func Inlines(text string) []Inline {
	p := &inlineParser{src: text, ahead: source{s: text}}
	p.read()
	return p.list.inlines()
}

// inlineParser reads one paragraph's inlines: text, and the pieces that
// emphasis and links are made of, which it pairs as it goes (links) and
// at the end (emphasis).
type inlineParser struct {
	src   string
	ahead source // src, for searches ahead
	list  pieces
	from  int // where the text not yet in a piece begins

	firstDelim, lastDelim *piece   // the runs that may still open or close
	brackets              []*piece // the brackets that may still open a link
	links                 int      // links made so far (images aside)
}

// read reads src, character by character, into pieces.
func (p *inlineParser) read() {
	s := p.src
	escaped := false
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\n':
			p.lineEnd(i)
			i++
			p.from, escaped = i, false
			continue
		case escaped:
			escaped = false
			i++
			continue
		case c == '\\':
			escaped = true
			i++
			continue
		}
		if end := p.markup(i); end > i {
			i, p.from = end, end
			continue
		}
		i++
	}
	p.text(trimSpace(p.src[p.from:]), NoBreak)
	p.emphasis(nil)
	for _, b := range p.brackets {
		b.kind = pieceText
	}
}

// lineEnd ends a line's text at i, the newline, with the break it asks
// for: a backslash before the newline or two spaces make a hard one.
func (p *inlineParser) lineEnd(i int) {
	rest := p.src[p.from:i]
	n := len(rest)
	switch {
	case rest == "\\" || (n >= 2 && rest[n-1] == '\\' && rest[n-2] != '\\'):
		p.text(rest[:n-1], HardBreak)
	case n >= 2 && rest[n-1] == ' ' && rest[n-2] == ' ':
		p.text(trimSpace(rest[:n-2]), HardBreak)
	default:
		p.text(trimSpace(rest), SoftBreak)
	}
}

// text puts text, ended by brk, in a piece.
func (p *inlineParser) text(t string, brk Break) {
	if t != "" || brk != NoBreak {
		p.list.push(&piece{kind: pieceText, text: t, brk: brk})
	}
}

// trimSpace drops the white space at the end of s.
func trimSpace(s string) string { return strings.TrimRight(s, " \t\v\f\r") }

// flush puts the text before i, if any, in a piece of its own.
func (p *inlineParser) flush(i int) {
	if i > p.from {
		p.list.push(&piece{kind: pieceText, text: p.src[p.from:i]})
		p.from = i
	}
}

// markup reads the inline markup that starts at i, if any, and returns
// where it ends (i when there is none).
func (p *inlineParser) markup(i int) int {
	s := p.src
	switch s[i] {
	case '`':
		return p.codeSpan(i)
	case '*', '_':
		return p.delimiterRun(i)
	case '[':
		p.openBracket(i, false)
		return i + 1
	case '!':
		if i+1 < len(s) && s[i+1] == '[' {
			p.openBracket(i, true)
			return i + 2
		}
	case ']':
		return p.closeBracket(i)
	case '<':
		if n := autoLink(s[i:]); n > 0 {
			p.flush(i)
			p.list.push(&piece{kind: pieceNode, node: &AutoLink{Label: s[i+1 : i+n-1]}})
			return i + n
		}
		if n := p.ahead.rawHTML(i); n > 0 {
			p.flush(i)
			p.list.push(&piece{kind: pieceNode, node: &RawHTML{Text: s[i : i+n]}})
			return i + n
		}
	}
	return i
}

// codeSpan reads a code span opened by the run of backticks at i: up to
// the next run as long, or, without one, the run as text.
func (p *inlineParser) codeSpan(i int) int {
	s := p.src
	n := run(s, i)
	p.flush(i)
	if j := p.ahead.backtickRun(n, i+n); j >= 0 {
		p.list.push(&piece{kind: pieceNode, node: &CodeSpan{Text: codeText(s[i+n : j])}})
		return j + n
	}
	p.list.push(&piece{kind: pieceText, text: s[i : i+n]})
	return i + n
}

// run is the length of the run of s[i] at i.
func run(s string, i int) int {
	n := 1
	for i+n < len(s) && s[i+n] == s[i] {
		n++
	}
	return n
}

// codeText is a code span's text: one space stripped from each end when
// both have one (or a line ending) and it is not all spaces, and its
// line endings spaces.
func codeText(t string) string {
	if strings.Trim(t, " \n") != "" && len(t) >= 2 && (t[0] == ' ' || t[0] == '\n') && (t[len(t)-1] == ' ' || t[len(t)-1] == '\n') {
		t = t[1 : len(t)-1]
	}
	return strings.ReplaceAll(t, "\n", " ")
}

// delimiterRun reads the run of * or _ at i, which may open or close
// emphasis by what is on either side of it (CommonMark's flanking rules;
// a line's start and end count as spaces).
func (p *inlineParser) delimiterRun(i int) int {
	s := p.src
	n := run(s, i)
	before, after := '\n', ' '
	if i > 0 {
		before, _ = utf8.DecodeLastRuneInString(s[:i])
	}
	if i+n < len(s) {
		after, _ = utf8.DecodeRuneInString(s[i+n:])
	}
	left := !isSpace(after) && (!isPunct(after) || isSpace(before) || isPunct(before))
	right := !isSpace(before) && (!isPunct(before) || isSpace(after) || isPunct(after))
	d := &piece{kind: pieceDelim, text: s[i : i+n], char: s[i], length: n, orig: n, canOpen: left, canClose: right}
	if s[i] == '_' {
		d.canOpen = left && (!right || isPunct(before))
		d.canClose = right && (!left || isPunct(after))
	}
	p.flush(i)
	p.list.push(d)
	d.prevDelim = p.lastDelim
	if p.lastDelim != nil {
		p.lastDelim.nextDelim = d
	} else {
		p.firstDelim = d
	}
	p.lastDelim = d
	return i + n
}

// openBracket reads [ (or ![ for an image) at i.
func (p *inlineParser) openBracket(i int, image bool) {
	p.flush(i)
	text := "["
	if image {
		text = "!["
	}
	b := &piece{kind: pieceBracket, text: text, image: image, bottom: p.lastDelim, linksBefore: p.links}
	p.list.push(b)
	p.brackets = append(p.brackets, b)
}

// closeBracket reads ] at i: with the last bracket still open and an
// inline destination after it, the pieces between make a link or an
// image; else the bracket is text, and so is this.
func (p *inlineParser) closeBracket(i int) int {
	if len(p.brackets) == 0 {
		return i
	}
	p.flush(i)
	opener := p.brackets[len(p.brackets)-1]
	p.brackets = p.brackets[:len(p.brackets)-1]
	// A link holds no link: one made since the bracket opened is in it.
	if !opener.image && p.links > opener.linksBefore {
		opener.kind = pieceText
		return i
	}
	dest, title, end, ok := p.ahead.inlineLink(i + 1)
	if !ok {
		opener.kind = pieceText
		return i
	}
	p.emphasis(opener.bottom)
	link := &piece{kind: pieceLink, image: opener.image, dest: dest, title: title}
	if !opener.image {
		p.links++
	}
	link.sub = p.list.cut(opener, nil)
	p.list.remove(opener)
	p.list.push(link)
	return end
}

// isSpace says whether r is white space, as CommonMark's flanking rules
// read it.
func isSpace(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\v', '\f', '\r':
		return true
	}
	return r > 0x7f && unicodeSpace(r)
}
