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
