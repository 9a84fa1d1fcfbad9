package shell

import (
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// maxBraceWords bounds what one word's brace expansion may yield; past
// it the word is kept as written.
const maxBraceWords = 64

// words renders a word as the shell would pass it: quotes removed,
// comma braces expanded ({a,b}), known variables substituted.
func (w *walker) words(word *syntax.Word) []string {
	return texts(w.expand(word))
}

// expand renders a word like words, saying of each result whether it is
// opaque (see Word).
func (w *walker) expand(word *syntax.Word) []Word {
	if word == nil {
		return nil
	}
	alts, braced := expandBraces(word)
	out := make([]Word, 0, len(alts))
	for _, alt := range alts {
		var b strings.Builder
		opaque := braced
		for _, part := range alt {
			if w.part(&b, part, false) {
				opaque = true
			}
		}
		out = append(out, Word{Text: b.String(), Opaque: opaque})
	}
	return out
}

// texts are the words' texts.
func texts(words []Word) []string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = w.Text
	}
	return out
}

// expandBraces lists the part sequences a word's comma braces expand
// to; sequences ({1..9}) stay as written. braced says the word holds a
// brace expansion, expanded or not.
func expandBraces(word *syntax.Word) (alts [][]syntax.WordPart, braced bool) {
	split := &syntax.Word{Parts: append([]syntax.WordPart(nil), word.Parts...)}
	if !syntax.SplitBraces(split) {
		return [][]syntax.WordPart{word.Parts}, false
	}
	alts = [][]syntax.WordPart{nil}
	for _, part := range split.Parts {
		be, ok := part.(*syntax.BraceExp)
		braced = braced || ok
		if !ok || be.Sequence || len(alts)*len(be.Elems) > maxBraceWords {
			if ok {
				return [][]syntax.WordPart{word.Parts}, true
			}
			for i := range alts {
				alts[i] = append(alts[i], part)
			}
			continue
		}
		var next [][]syntax.WordPart
		for _, alt := range alts {
			for _, elem := range be.Elems {
				subs, _ := expandBraces(elem)
				for _, sub := range subs {
					next = append(next, append(append([]syntax.WordPart(nil), alt...), sub...))
				}
			}
		}
		if len(next) > maxBraceWords {
			return [][]syntax.WordPart{word.Parts}, true
		}
		alts = next
	}
	return alts, braced
}

// part writes one word part and reports whether it is opaque; quoted
// says it sits inside double quotes, which changes what a backslash
// escapes and keeps a glob literal.
func (w *walker) part(b *strings.Builder, part syntax.WordPart, quoted bool) (opaque bool) {
	switch p := part.(type) {
	case *syntax.Lit:
		b.WriteString(Unescape(p.Value, quoted))
		return !quoted && hasGlob(p.Value)
	case *syntax.SglQuoted:
		if p.Dollar {
			b.WriteString(ansiC(p.Value))
		} else {
			b.WriteString(p.Value)
		}
		return false
	case *syntax.DblQuoted:
		for _, inner := range p.Parts {
			if w.part(b, inner, true) {
				opaque = true
			}
		}
		return opaque
	case *syntax.ParamExp:
		b.WriteString(w.param(p))
	default:
		b.WriteString(source(part))
	}
	return true
}

// hasGlob reports whether an unquoted literal holds a pattern the shell
// expands: * or ?, or a bracket expression ([ alone, the test command,
// is not one).
func hasGlob(raw string) bool {
	for i := 0; i < len(raw); i++ {
		switch raw[i] {
		case '\\':
			i++
		case '*', '?':
			return true
		case '[':
			if strings.IndexByte(raw[i+1:], ']') >= 0 {
				return true
			}
		}
	}
	return false
}

// param is a variable's value when the script assigned it, the default
// of ${X:-default} when it did not, and the source text otherwise.
func (w *walker) param(p *syntax.ParamExp) string {
	if p.Param == nil {
		return source(p)
	}
	name := p.Param.Value
	val, known := w.vars[name]
	plain := p.Index == nil && !p.Excl && !p.Length && p.Slice == nil && p.Repl == nil && p.Names == 0
	switch {
	case plain && p.Exp == nil && known:
		return val
	case plain && p.Exp == nil:
		if p.Short {
			return "$" + name
		}
		return "${" + name + "}"
	case plain && !known && p.Exp.Word != nil &&
		(p.Exp.Op == syntax.DefaultUnsetOrNull || p.Exp.Op == syntax.DefaultUnset ||
			p.Exp.Op == syntax.AssignUnsetOrNull || p.Exp.Op == syntax.AssignUnset):
		return strings.Join(w.words(p.Exp.Word), " ")
	}
	return source(p)
}

// hdocText is a here-document's body as the command reads it: with
// variables substituted and the backslashes before \, $, ` and a
// newline removed when its delimiter was unquoted (the parser leaves a
// quoted one literal); opaque says it holds a substitution.
func (w *walker) hdocText(word *syntax.Word, quoted bool) (text string, opaque bool) {
	var b strings.Builder
	for _, part := range word.Parts {
		if lit, ok := part.(*syntax.Lit); ok {
			if quoted {
				b.WriteString(lit.Value)
			} else {
				b.WriteString(unescapeHdoc(lit.Value))
			}
			continue
		}
		w.part(&b, part, true)
		opaque = true
	}
	return b.String(), opaque
}

// unescapeHdoc removes the backslashes the shell removes from the body
// of a here-document with an unquoted delimiter: before \, $ and `, and
// with the newline of a continued line: a body holding echo \`rm x\`
// runs rm when bash reads it.
func unescapeHdoc(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		switch next := s[i+1]; next {
		case '\n':
			i++
		case '\\', '$', '`':
			b.WriteByte(next)
			i++
		default:
			b.WriteByte('\\')
		}
	}
	return b.String()
}

// hdocQuoted reports whether a here-document's delimiter is quoted in
// any part ('EOF', "EOF", \EOF, E"O"F), which leaves its body literal.
func hdocQuoted(delim *syntax.Word) bool {
	for _, part := range delim.Parts {
		switch p := part.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			return true
		case *syntax.Lit:
			if strings.Contains(p.Value, `\`) {
				return true
			}
		}
	}
	return false
}

// source prints a node as written. The printer panics on some brace
// expansions a script may hold ({{,},}, found by the fuzzer); the node
// is opaque wherever source is used, so "?" says all there is to say.
func source(n syntax.Node) (text string) {
	defer func() {
		if recover() != nil {
			text = "?"
		}
	}()
	var b strings.Builder
	if err := syntax.NewPrinter(syntax.Minify(true)).Print(&b, n); err != nil {
		return "?"
	}
	return b.String()
}

// Unescape removes the backslashes the shell removes: any escape outside
// quotes, and only \$ \` \" \\ and line continuations inside them. It is
// exported so permission rules read a word exactly as the blocklist does.
func Unescape(s string, quoted bool) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		next := s[i+1]
		switch {
		case next == '\n':
			i++
		case !quoted || strings.IndexByte("$`\"\\", next) >= 0:
			b.WriteByte(next)
			i++
		default:
			b.WriteByte('\\')
		}
	}
	return b.String()
}

// ansiC decodes the escapes of a $'…' string, so $'\x2f' reads as "/".
func ansiC(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch c := s[i]; c {
		case 'a', 'b', 'e', 'E', 'f', 'n', 'r', 't', 'v':
			b.WriteByte(map[byte]byte{'a': 7, 'b': 8, 'e': 27, 'E': 27, 'f': 12, 'n': 10, 'r': 13, 't': 9, 'v': 11}[c])
		case 'x', 'u', 'U':
			size := map[byte]int{'x': 2, 'u': 4, 'U': 8}[c]
			j := i + 1
			for j < len(s) && j-i-1 < size && isHex(s[j]) {
				j++
			}
			if n, err := strconv.ParseUint(s[i+1:j], 16, 32); err == nil {
				if c == 'x' {
					b.WriteByte(byte(n))
				} else {
					b.WriteRune(rune(n))
				}
				i = j - 1
			} else {
				b.WriteString(`\` + string(c))
			}
		case 'c':
			if i+1 < len(s) {
				i++
				b.WriteByte(s[i] & 0x1f)
			}
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(s) && j-i < 3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			n, _ := strconv.ParseUint(s[i:j], 8, 8)
			b.WriteByte(byte(n))
			i = j - 1
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}
