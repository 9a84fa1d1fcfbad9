package markdown

import (
	"strings"
	"unicode/utf8"

	"github.com/seed-e4e525a6/baton/ui/markdown/parse"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// Stream draws one message while it arrives: its finished blocks as
// Markdown, each drawn once, and the block still open as raw wrapped
// text. A block is finished when the lines after it can no longer change
// it: a later block has started, or it closed itself (a heading, a rule,
// a fenced block's closing fence, a paragraph or quote ended by a blank
// line). Only complete lines are parsed, since a line's first characters
// can read as a block start that its rest undoes. So Render of the whole
// message, once done, draws the finished blocks with the very same lines.
type Stream struct {
	r     *Renderer
	width int
	done  int      // bytes of the text that finished blocks cover
	seen  int      // bytes of the text searched for its last newline
	whole int      // bytes of the text in complete lines
	lines []string // the finished blocks drawn, blank lines between

	memoLen, memoN int // the text length and line count (0: all) of the last call
	memo           []string

	rawKey   [2]int   // done and whole when rawLines were wrapped
	rawLines []string // the open block's complete lines, wrapped

	// Whether the line being written, from roughAt on, holds a control
	// character, as far as roughTo; see rough.
	roughAt, roughTo int
	roughSeen        bool

	// The line being written, wrapped. While it grows only its last
	// wrapped line can change (a longer word still does not fit where
	// it did not), so the lines before are kept and each call wraps
	// from the start of the last: a delta costs a line, not the
	// paragraph.
	openAt    int      // where in the text the line begins (-1: nothing kept)
	openFinal int      // bytes of the line that openLines cover
	openLines []string // its wrapped lines before the last, drawn
}

// NewStream starts the drawing of one message.
func (r *Renderer) NewStream() *Stream { return &Stream{r: r, rawKey: [2]int{-1, -1}, openAt: -1} }

// Lines draws the message so far at width. text only grows between calls
// (it is the same message); a call with no new text costs nothing. The
// lines are shared with the stream: the caller must not change them.
func (s *Stream) Lines(text string, width int) []string {
	if s.sync(text, width, 0) {
		return s.memo
	}
	out := s.lines[:len(s.lines):len(s.lines)]
	if tail := s.raw(text); len(tail) > 0 {
		if len(out) > 0 {
			out = append(out, "")
		}
		out = append(out, tail...)
	}
	s.memo, s.memoLen, s.memoN = out, len(text), 0
	return out
}

// Last draws only the last n lines of Lines, for a view that shows a few.
// A frame costs the same however long the last line grows: one of plain
// text is wrapped as it grows, like Lines; of any other only the end is.
func (s *Stream) Last(text string, width, n int) []string {
	n = max(n, 1)
	if s.covers(text, width, n) {
		return s.memo[max(len(s.memo)-n, 0):]
	}
	if s.sync(text, width, n) {
		return s.memo
	}
	// n lines of width cells rarely take more than twice as many bytes
	// (a CJK character is three bytes in two cells). A long last line
	// that has been wrapped as it grew (see openLine) costs a delta; one
	// that came at once, or is not plain text, is wrapped from a cut.
	budget := 2 * n * s.width
	var out []string
	if at := max(s.whole, s.done); len(text)-at > budget && s.rough(text, at) {
		line := text[at:]
		// A long last line is cut at a step of budget bytes, so the cut,
		// and the wrapping after it, stays put while the line grows.
		cut := (len(line) - budget) / budget * budget
		if i := strings.IndexByte(line[cut:], ' '); i >= 0 {
			cut += i + 1
		}
		out = s.wrapRaw(strings.ToValidUTF8(line[cut:], ""))
	} else {
		out = s.rawTail(text, n)
	}
	if len(out) < n && len(s.lines) > 0 {
		if len(out) > 0 {
			out = append([]string{""}, out...)
		}
		out = append(s.lines[max(len(s.lines)-n, 0):len(s.lines):len(s.lines)], out...)
	}
	out = out[max(len(out)-n, 0):]
	s.memo, s.memoLen, s.memoN = out, len(text), n
	return out
}

// rough says whether the line from at on holds a control character (a
// tab, an escape), which openLine cannot wrap as the line grows. It reads
// only what was added since the last call (and the last few bytes again,
// a rune may have been cut), so the answer depends on the text alone.
func (s *Stream) rough(text string, at int) bool {
	if s.roughAt != at || s.roughTo > len(text) {
		s.roughAt, s.roughTo, s.roughSeen = at, at, false
	}
	if !s.roughSeen {
		rest := text[s.roughTo:]
		s.roughSeen = termtext.Clean(rest) != rest
		s.roughTo = max(at, len(text)-utf8.UTFMax)
	}
	return s.roughSeen
}

// covers reports whether the last drawing holds the last n lines of
// text at width: one of as many lines or more does, so a pane measured at
// its full height and then drawn shorter wraps its text once a frame.
func (s *Stream) covers(text string, width, n int) bool {
	return s.memo != nil && max(width, 1) == s.width && len(text) == s.memoLen && (s.memoN == 0 || s.memoN >= n)
}

// sync starts over for a new width (or a text that shrank, which is not
// the same message), draws the blocks that text finishes, and reports
// whether the last drawing still holds.
func (s *Stream) sync(text string, width, n int) bool {
	width = max(width, 1)
	if width != s.width || len(text) < s.seen {
		s.width, s.done, s.seen, s.whole, s.lines, s.memo = width, 0, 0, 0, nil, nil
		s.rawKey, s.openAt = [2]int{-1, -1}, -1
	}
	if s.memo != nil && len(text) == s.memoLen && n == s.memoN {
		return true
	}
	s.advance(text)
	return false
}

// advance draws the blocks that the complete lines of text finish.
func (s *Stream) advance(text string) {
	if i := strings.LastIndexByte(text[s.seen:], '\n'); i >= 0 {
		s.whole = s.seen + i + 1
	}
	s.seen = len(text)
	complete := s.whole
	if complete <= s.done {
		return
	}
	chunk := text[s.done:complete]
	if termtext.Clean(chunk) != chunk {
		return // escapes would shift every offset; the tail draws it cleaned
	}
	blocks := s.r.split(chunk)
	finished := len(blocks) - 1
	if finished >= 0 && closed(blocks[finished], chunk) {
		finished++
	}
	for i := range max(finished, 0) {
		if len(s.lines) > 0 {
			s.lines = append(s.lines, "")
		}
		s.lines = append(s.lines, s.r.draw(blocks[i], s.width)...)
	}
	switch {
	case finished == len(blocks):
		s.done = complete
	case finished > 0:
		s.done += blocks[finished].start
	}
}

// closed says whether the last block of the complete lines in chunk can
// take no more lines.
func closed(b block, chunk string) bool {
	switch n := b.node.(type) {
	case *parse.Heading, *parse.ThematicBreak:
		return true
	case *parse.CodeBlock:
		return n.Fenced && fenceClosed(b.text)
	case *parse.Paragraph, *parse.Quote:
		return blankEnd(chunk[b.start:])
	}
	return false
}

// blankEnd says whether text, complete lines, ends with a line of nothing
// but spaces after at least one other.
func blankEnd(text string) bool {
	body := strings.TrimSuffix(text, "\n")
	last := body[strings.LastIndexByte(body, '\n')+1:]
	return strings.TrimSpace(last) == "" && strings.Contains(body, "\n")
}

// fenceClosed says whether a fenced block's text ends with a fence that
// closes its opening one: the same character, at least as many, and
// nothing after it.
func fenceClosed(text string) bool {
	lines := strings.Split(text, "\n")
	if len(lines) < 2 {
		return false
	}
	open := strings.TrimLeft(lines[0], " ")
	if open == "" || (open[0] != '`' && open[0] != '~') {
		return false
	}
	n := len(open) - len(strings.TrimLeft(open, open[:1]))
	last := strings.TrimSpace(lines[len(lines)-1])
	indent := len(lines[len(lines)-1]) - len(strings.TrimLeft(lines[len(lines)-1], " "))
	return indent < 4 && len(last) >= n && strings.Trim(last, open[:1]) == ""
}

// raw draws the open block as written: its complete lines, wrapped once
// and kept while no line is added, then the line being written, which is
// all a delta costs. Blank lines around it are dropped.
func (s *Stream) raw(text string) []string {
	if key := [2]int{s.done, s.whole}; key != s.rawKey {
		s.rawLines, s.rawKey = s.wrapRaw(text[s.done:s.whole]), key
	}
	out := append(s.rawLines[:len(s.rawLines):len(s.rawLines)], s.openLine(text)...)
	for len(out) > 0 && out[0] == "" {
		out = out[1:]
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}

// openLine draws the line being written, the text after the last
// newline, as wrapRaw does: the lines kept from the last call, then the
// rest wrapped. A line that is not plain text (escapes, which cleaning
// would shift) is wrapped whole.
func (s *Stream) openLine(text string) []string {
	kept, fresh := s.openParts(text)
	return append(kept[:len(kept):len(kept)], fresh...)
}

// openParts is openLine in two parts: the lines kept from earlier calls
// (shared with the stream, not to be changed) and the ones wrapped now.
func (s *Stream) openParts(text string) (kept, fresh []string) {
	at := max(s.whole, s.done)
	line := strings.TrimRight(text[at:], " ")
	if at != s.openAt || len(line) < s.openFinal {
		s.openAt, s.openFinal, s.openLines = at, 0, nil
	}
	rest := line[s.openFinal:]
	if strings.IndexByte(rest, '\n') >= 0 || termtext.Clean(rest) != rest {
		s.openAt = -1
		return nil, s.wrapRaw(text[at:])
	}
	if rest == "" {
		return s.openLines, nil
	}
	spans := []span{{rest, s.r.st.text}}
	lines := wrapPieces(spans, s.width)
	last := len(lines) - 1
	if last > 0 && len(lines[last]) > 0 {
		for _, l := range lines[:last] {
			s.openLines = append(s.openLines, paint(spansOf(spans, l)))
		}
		s.openFinal += lines[last][0].start
		lines = lines[last:]
	}
	fresh = make([]string, len(lines))
	for i, l := range lines {
		fresh[i] = paint(spansOf(spans, l))
	}
	return s.openLines, fresh
}

// rawTail is the last n lines of raw(text). Of a long line being written
// it takes them from openParts as they are, without copying the lines
// before: the line may be thousands of lines long.
func (s *Stream) rawTail(text string, n int) []string {
	kept, fresh := s.openParts(text)
	from := len(kept) + len(fresh) - n
	if from < 1 {
		return s.raw(text) // short enough to take whole
	}
	tail := make([]string, 0, n)
	tail = append(tail, kept[min(from, len(kept)):]...)
	tail = append(tail, fresh[max(from-len(kept), 0):]...)
	for _, line := range tail {
		if line == "" { // raw drops blank lines at the end: let it
			return s.raw(text)
		}
	}
	return tail
}

// wrapRaw wraps text, cleaned, line by line in the plain text style; a
// line of spaces is an empty one.
func (s *Stream) wrapRaw(text string) []string {
	text = strings.TrimSuffix(termtext.Clean(text), "\n")
	if text == "" {
		return nil
	}
	var out []string
	for _, line := range strings.Split(text, "\n") {
		out = append(out, wrapText([]span{{strings.TrimRight(line, " "), s.r.st.text}}, s.width)...)
	}
	return out
}
