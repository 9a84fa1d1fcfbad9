package llm

import (
	"fmt"
	"unicode/utf8"
)

// DefaultReplyMaxBytes caps one reply when nothing else is configured: an
// endless stream once took baton to 11 GB of memory.
const DefaultReplyMaxBytes = 4 << 20

// MaxReplyBytes is the hard maximum of the reply cap ([limits]
// reply_max_bytes); no configuration exceeds it.
const MaxReplyBytes = 16 << 20

// lineOverhead is what one stream line may carry beyond the reply it adds
// to: the JSON envelope of a chunk.
const lineOverhead = 64 << 10

// replyLimit is the cap Stream applies for a configured value.
func replyLimit(n int) int {
	if n <= 0 {
		return DefaultReplyMaxBytes
	}
	return min(n, MaxReplyBytes)
}

// ReplyTooLargeError says a reply outgrew the cap and its stream was cut.
type ReplyTooLargeError struct {
	Limit int
}

// Error names the cap and the setting that raises it.
func (e *ReplyTooLargeError) Error() string {
	return fmt.Sprintf("the reply exceeded %s (reply_max_bytes) and was cut off", formatBytes(e.Limit))
}

// size is how many bytes the reply holds so far: text, reasoning and tool
// calls.
func (a *accumulator) size() int {
	n := a.content.Len() + a.reasoning.Len()
	for _, cb := range a.calls {
		n += len(cb.id) + len(cb.name) + cb.args.Len()
	}
	return n
}

// capped cuts a partial reply's text to limit bytes on a rune boundary, so
// what is kept of a cut reply is what came up to the cap.
func capped(r Response, limit int) Response {
	r.Content = cutUTF8(r.Content, limit)
	r.Reasoning = cutUTF8(r.Reasoning, max(limit-len(r.Content), 0))
	return r
}

// cutUTF8 returns at most n bytes of s, never splitting a rune.
func cutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
