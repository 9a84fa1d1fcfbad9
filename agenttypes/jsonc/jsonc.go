// Package jsonc reads JSON with comments, the form OpenCode's
// opencode.jsonc (and many an opencode.json) is written in.
package jsonc

// Strip removes // and /* */ comments and trailing commas outside
// strings, turning JSONC into JSON; offsets of what is left may shift.
func Strip(in []byte) []byte {
	out := make([]byte, 0, len(in))
	for i := 0; i < len(in); i++ {
		c := in[i]
		switch {
		case c == '"':
			j := i + 1
			for j < len(in) && in[j] != '"' {
				if in[j] == '\\' {
					j++
				}
				j++
			}
			end := min(j+1, len(in))
			out = append(out, in[i:end]...)
			i = end - 1
		case c == '/' && i+1 < len(in) && in[i+1] == '/':
			for i < len(in) && in[i] != '\n' {
				i++
			}
			i--
		case c == '/' && i+1 < len(in) && in[i+1] == '*':
			i += 2
			for i+1 < len(in) && !(in[i] == '*' && in[i+1] == '/') {
				i++
			}
			i++
		case c == ',' && closesNext(in[i+1:]):
			// A trailing comma before } or ] is dropped.
		default:
			out = append(out, c)
		}
	}
	return out
}

// closesNext reports whether the next meaningful byte of rest (skipping
// spaces and comments) closes an object or array.
func closesNext(rest []byte) bool {
	for i := 0; i < len(rest); i++ {
		switch c := rest[i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		case c == '/' && i+1 < len(rest) && rest[i+1] == '/':
			for i < len(rest) && rest[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(rest) && rest[i+1] == '*':
			i += 2
			for i+1 < len(rest) && !(rest[i] == '*' && rest[i+1] == '/') {
				i++
			}
			i++
		default:
			return c == '}' || c == ']'
		}
	}
	return false
}
