package tools

import (
	"strings"
)

// shellScript is a command line split the way the blocklist needs it: the
// simple commands it runs (split on ; & | newlines, parentheses, braces
// and backticks), each as words with quotes removed, plus the text of
// every $(…) or `…` found inside double quotes, which the shell also runs.
// It is a careful approximation of sh, not a parser: it exists so the
// blocklist sees `sudo rm -rf "/"` as rm's argv.
type shellScript struct {
	commands [][]string
	nested   []string
}

// splitShell lexes a command line into a shellScript.
func splitShell(s string) shellScript {
	var (
		out    shellScript
		words  []string
		cur    strings.Builder
		inWord bool
	)
	endWord := func() {
		if inWord {
			words = append(words, cur.String())
			cur.Reset()
			inWord = false
		}
	}
	endCommand := func() {
		endWord()
		if len(words) > 0 {
			out.commands = append(out.commands, words)
			words = nil
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			i++
			if s[i] != '\n' {
				cur.WriteByte(s[i])
				inWord = true
			}
		case c == '\'':
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				end = len(s) - i - 1
			}
			cur.WriteString(s[i+1 : i+1+end])
			i += end + 1
			inWord = true
		case c == '"':
			text, next := doubleQuoted(s, i+1)
			cur.WriteString(text)
			out.nested = append(out.nested, substitutions(text)...)
			i = next
			inWord = true
		case c == '$' && strings.HasPrefix(s[i:], "${"):
			end := strings.IndexByte(s[i:], '}')
			if end < 0 {
				end = len(s) - i - 1
			}
			cur.WriteString(s[i : i+end+1])
			i += end
			inWord = true
		case c == ' ' || c == '\t':
			endWord()
		case strings.IndexByte(";&|\n(){}`", c) >= 0:
			endCommand()
		case c == '$' && i+1 < len(s) && s[i+1] == '(':
			endCommand()
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	endCommand()
	return out
}

// doubleQuoted reads a double-quoted string starting after its opening
// quote and returns its text and the index of the closing quote.
func doubleQuoted(s string, start int) (string, int) {
	var b strings.Builder
	i := start
	for ; i < len(s) && s[i] != '"'; i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte(`"\$`+"`", s[i+1]) >= 0 {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String(), i
}

// substitutions returns the scripts of the $(…) and `…` substitutions in
// the text of a double-quoted string.
func substitutions(text string) []string {
	var out []string
	for i := 0; i < len(text); i++ {
		switch {
		case strings.HasPrefix(text[i:], "$("):
			depth, j := 1, i+2
			for ; j < len(text) && depth > 0; j++ {
				switch text[j] {
				case '(':
					depth++
				case ')':
					depth--
				}
			}
			end := j
			if depth == 0 {
				end = j - 1 // drop the closing parenthesis
			}
			out = append(out, text[i+2:end])
			i = j - 1
		case text[i] == '`':
			end := strings.IndexByte(text[i+1:], '`')
			if end < 0 {
				end = len(text) - i - 1
			}
			out = append(out, text[i+1:i+1+end])
			i += end + 1
		}
	}
	return out
}
