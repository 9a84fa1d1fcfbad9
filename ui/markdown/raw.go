package markdown

import (
	"strings"

	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// raw draws the open block as written: its complete lines, wrapped once
// and kept while no line is added, then the line being written, which is
// all a delta costs. Blank lines around it are dropped.
func (s *Stream) raw(text string) []string {
	if key := [2]int{s.done, s.whole}; key != s.rawKey {
		s.rawLines, s.rawKey = s.wrapRaw(text[s.done:s.whole]), key
	}
	out := append(s.rawLines[:len(s.rawLines):len(s.rawLines)], s.wrapRaw(text[max(s.whole, s.done):])...)
	for len(out) > 0 && out[0] == "" {
		out = out[1:]
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
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
