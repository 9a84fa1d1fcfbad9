package parse

import "strings"

// needle is one of the strings inline markup searches ahead for.
type needle uint8

// The needles.
const (
	commentEnd needle = iota
	instructionEnd
	declarationEnd
	cdataEnd
	singleQuote
	doubleQuote
	needleCount
)

// needles are the needles' texts.
var needles = [needleCount]string{"-->", "?>", ">", "]]>", "'", `"`}

// source is a paragraph's text, searched ahead for the ends of markup.
// It remembers, for each needle, where its last search began and what
// it found: searches only move forward, so a paragraph of many unclosed
// openers (<!--, <a title=", `) costs its length, not its square.
type source struct {
	s    string
	memo [needleCount]struct {
		set      bool
		from, at int
	}
	// noRun[n] is an offset from which no run of exactly n backticks
	// follows (0: not known).
	noRun []int
}

// index is the offset of the first needle k at or after from, or -1.
func (src *source) index(k needle, from int) int {
	m := &src.memo[k]
	if m.set && from >= m.from && (m.at < 0 || m.at >= from) {
		return m.at
	}
	at := strings.Index(src.s[from:], needles[k])
	if at >= 0 {
		at += from
	}
	m.set, m.from, m.at = true, from, at
	return at
}

// backtickRun is the offset of the first run of exactly n backticks at
// or after from, or -1.
func (src *source) backtickRun(n, from int) int {
	if n < len(src.noRun) && src.noRun[n] > 0 && from >= src.noRun[n] {
		return -1
	}
	s := src.s
	for j := from; j < len(s); {
		k := strings.IndexByte(s[j:], '`')
		if k < 0 {
			break
		}
		j += k
		m := run(s, j)
		if m == n {
			return j
		}
		j += m
	}
	if n >= len(src.noRun) {
		src.noRun = append(src.noRun, make([]int, n+1-len(src.noRun))...)
	}
	src.noRun[n] = from
	return -1
}
