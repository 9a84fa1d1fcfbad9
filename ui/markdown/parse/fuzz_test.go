package parse

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// FuzzParse holds for any text that parsing ends without a panic, that
// the blocks start at line starts in order, and that every letter (and
// every digit past ASCII; ASCII digits can be list numbers) of the text
// is somewhere in the tree: markup is dropped, never the words it marks.
// The seeds are the renderer's corpus and the tricky cases of the tests;
// `go test` runs them, `go test -fuzz FuzzParse` looks for more.
func FuzzParse(f *testing.F) {
	paths, _ := filepath.Glob("../testdata/corpus/*.md")
	for _, path := range paths {
		b, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	for _, seed := range []string{
		"", "\n", "-", "- \n  - x", "> ```\n>\n> ", "*a **b** c*", "[a [b](c) d](e)", "`a``b`", "<a href='x\n'>",
		"<!-- x", "1. \n   - sub", "***\n---\n===", "para\n    code", "&#x110000; &#0; &amp", "\\\n", "a  \n", "#\t#",
		"<div>\n\n</div>", "![a](<b> \"c\")", "* * *\n+ + +", "snake_case_words 2*3*4", "~~~\n\tcode\n~~~",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, src string) {
		doc := Parse(src)
		if len(doc.Blocks) != len(doc.Starts) {
			t.Fatalf("%d blocks, %d starts", len(doc.Blocks), len(doc.Starts))
		}
		for i, at := range doc.Starts {
			if at < 0 || at >= len(src) || (at > 0 && src[at-1] != '\n') || (i > 0 && at <= doc.Starts[i-1]) {
				t.Fatalf("block %d starts at %d, not at a line start after the last: %v", i, at, doc.Starts)
			}
		}
		if !utf8.ValidString(src) {
			return
		}
		var out strings.Builder
		collect(&out, doc.Blocks)
		have := kept(out.String())
		for r, n := range kept(withoutReferences(src)) {
			if have[r] < n {
				t.Fatalf("%q: %d of %d %q kept in %q", src, have[r], n, r, out.String())
			}
		}
	})
}

// kept counts the runes the parse must keep: letters, and digits past
// ASCII.
func kept(s string) map[rune]int {
	counts := map[rune]int{}
	for _, r := range s {
		if unicode.IsLetter(r) || (r > unicode.MaxASCII && unicode.IsDigit(r)) {
			counts[r]++
		}
	}
	return counts
}

// withoutReferences drops what reads like a character reference (&name;
// &#1; &#x1;), whose letters the parse may replace.
func withoutReferences(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '&' {
			j := i + 1
			for j < len(s) && (letter(s[j]) || digit(s[j]) || s[j] == '#') {
				j++
			}
			if j < len(s) && s[j] == ';' && j > i+1 {
				i = j
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// collect writes all the text of blocks, inlines parsed, to b.
func collect(b *strings.Builder, blocks []Block) {
	for _, block := range blocks {
		switch block := block.(type) {
		case *Heading:
			collectInlines(b, Inlines(block.Text))
		case *Paragraph:
			collectInlines(b, Inlines(block.Text()))
		case *CodeBlock:
			b.WriteString(block.Info + "\n" + strings.Join(block.Lines, "\n"))
		case *Quote:
			collect(b, block.Blocks)
		case *List:
			for _, item := range block.Items {
				collect(b, item.Blocks)
			}
		case *HTMLBlock:
			b.WriteString(strings.Join(block.Lines, "\n"))
		}
		b.WriteByte('\n')
	}
}

// collectInlines writes all the text of inlines to b.
func collectInlines(b *strings.Builder, ins []Inline) {
	for _, in := range ins {
		switch in := in.(type) {
		case *Text:
			b.WriteString(in.Text)
		case *CodeSpan:
			b.WriteString(in.Text)
		case *Emphasis:
			collectInlines(b, in.Children)
		case *Link:
			collectInlines(b, in.Children)
			b.WriteString(" " + in.Destination + " " + in.Title)
		case *Image:
			collectInlines(b, in.Children)
			b.WriteString(" " + in.Destination + " " + in.Title)
		case *AutoLink:
			b.WriteString(in.Label)
		case *RawHTML:
			b.WriteString(in.Text)
		}
		b.WriteByte(' ')
	}
}
