package parse

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// corpus is the renderer's corpus of replies, joined.
func corpus(b *testing.B) string {
	paths, _ := filepath.Glob("../testdata/corpus/*.md")
	var all strings.Builder
	for _, path := range paths {
		text, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		all.Write(text)
		all.WriteString("\n\n")
	}
	return all.String()
}

// BenchmarkParse is the block parse of a corpus of replies, what a
// streaming message pays at each line it completes.
func BenchmarkParse(b *testing.B) {
	src := corpus(b)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		Parse(src)
	}
}

// BenchmarkInlines is the inline parse of every paragraph and heading of
// the corpus, what drawing its blocks pays once each.
func BenchmarkInlines(b *testing.B) {
	src := corpus(b)
	var texts []string
	for _, block := range Parse(src).Blocks {
		switch block := block.(type) {
		case *Paragraph:
			texts = append(texts, block.Text())
		case *Heading:
			texts = append(texts, block.Text)
		}
	}
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		for _, t := range texts {
			Inlines(t)
		}
	}
}

// BenchmarkUnclosedMarkup is the inline parse of a paragraph of markup
// that never closes (runs of *, brackets, <!--, backticks of every
// length), which costs its length, not its square.
func BenchmarkUnclosedMarkup(b *testing.B) {
	var src strings.Builder
	for i := range 2000 {
		src.WriteString("*a [b](c <!-- _d ")
		src.WriteString(strings.Repeat("`", 1+i%40))
		src.WriteString(" ")
	}
	text := src.String()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Inlines(text)
	}
}
