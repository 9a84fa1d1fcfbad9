package event

import "strconv"

// Plural writes a count with its noun, "1 tool" and "3 tools", for every
// line a person reads about a session: the engine's stats line, panes and
// the UI's notes all count through it, so none says "1 tools". Nouns whose
// plural is not noun+"s" give it after a slash: "1 match/matches".
func Plural(n int, noun string) string {
	one, many := noun, noun+"s"
	for i := 0; i < len(noun); i++ {
		if noun[i] == '/' {
			one, many = noun[:i], noun[i+1:]
			break
		}
	}
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// Compact writes a count the way people read it at a glance: 950, 12.4k,
// 3.1M; the header, panes, cards and /subagents all count tokens with it.
func Compact(n int64) string {
	switch {
	case n < 1000:
		return strconv.FormatInt(n, 10)
	case n < 1_000_000:
		return strconv.FormatFloat(float64(n)/1000, 'f', 1, 64) + "k"
	default:
		return strconv.FormatFloat(float64(n)/1_000_000, 'f', 1, 64) + "M"
	}
}
