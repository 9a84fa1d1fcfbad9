package tools

import (
	"strings"
	"unicode/utf8"
)

// capture collects a command's output in bounded memory: it keeps the
// first half of its budget and the last half, because a build or test log
// says what ran at its start and what failed at its end. It counts bytes.
//
// exec.Cmd calls Write from one goroutine at a time when Stdout and Stderr
// are the same comparable writer, so capture needs no lock.
type capture struct {
	head, tail []byte
	headMax    int
	tailMax    int
	total      int
}

// newCapture returns a capture keeping at most max bytes.
func newCapture(max int) *capture {
	return &capture{headMax: max / 2, tailMax: max - max/2}
}

// Write keeps p's bytes in the head until it is full, then in the tail,
// compacting the tail once it holds twice its share.
func (c *capture) Write(p []byte) (int, error) {
	c.total += len(p)
	rest := p
	if room := c.headMax - len(c.head); room > 0 {
		n := min(room, len(rest))
		c.head = append(c.head, rest[:n]...)
		rest = rest[n:]
	}
	if len(rest) >= c.tailMax {
		c.tail = append(c.tail[:0], rest[len(rest)-c.tailMax:]...)
		return len(p), nil
	}
	c.tail = append(c.tail, rest...)
	if len(c.tail) > 2*c.tailMax {
		n := copy(c.tail, c.tail[len(c.tail)-c.tailMax:])
		c.tail = c.tail[:n]
	}
	return len(p), nil
}

// String is the kept output as valid UTF-8, with a marker where the middle
// was dropped. Cuts are moved to rune boundaries.
func (c *capture) String() string {
	tail := c.tail
	if len(tail) > c.tailMax {
		tail = tail[len(tail)-c.tailMax:]
	}
	dropped := c.total - len(c.head) - len(tail)
	if dropped == 0 {
		return strings.ToValidUTF8(string(c.head)+string(tail), "\uFFFD")
	}
	head := c.head
	for i := 1; i < utf8.UTFMax && i <= len(head); i++ {
		if utf8.RuneStart(head[len(head)-i]) {
			if !utf8.FullRune(head[len(head)-i:]) {
				dropped += i
				head = head[:len(head)-i]
			}
			break
		}
	}
	for i := 0; i < utf8.UTFMax-1 && len(tail) > 0 && !utf8.RuneStart(tail[0]); i++ {
		tail = tail[1:]
		dropped++
	}
	return strings.ToValidUTF8(string(head), "\uFFFD") +
		"\n… [truncated: " + plural(dropped, "byte", "bytes") + " in the middle]\n" +
		strings.ToValidUTF8(string(tail), "\uFFFD")
}
