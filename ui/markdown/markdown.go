// Package markdown draws Markdown as styled terminal lines, on its own
// CommonMark parser (ui/markdown/parse) and baton's theme. It replaces glamour, whose syntax
// highlighter, HTML sanitiser and extensions cost every start of baton
// about ten milliseconds of package init for features an answer in a
// terminal does without.
//
// A document is drawn one top-level block at a time, each on its own and
// cached by its source and width. That is what lets a streaming message
// (Stream) draw each block once, as soon as it is finished, and end with
// exactly the lines it streamed: the final drawing reuses the same blocks.
package markdown

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/themes"
	"github.com/seed-e4e525a6/baton/ui/markdown/parse"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// keptBlocks bounds the cache of drawn blocks; past it the cache starts
// over, which costs a redraw, never a wrong line.
const keptBlocks = 2048

// Renderer draws Markdown in one theme. It is not safe for concurrent
// use; the UI owns one per theme.
type Renderer struct {
	st    sequences
	cache map[cacheKey][]string
}

// cacheKey is a block's source and the width it was drawn at.
type cacheKey struct {
	width int
	src   string
}

// sequences are the theme's Markdown styles as escape sequences.
type sequences struct {
	text, heading1, heading, emphasis, strong, code, codeBlock style
	link, url, quote, marker, rule, tableHeader                style
}

// New makes a renderer for a theme's Markdown styles, read in the colour
// profile lipgloss has now.
func New(st themes.MarkdownStyles) *Renderer {
	return &Renderer{
		st: sequences{
			text: sequence(st.Text), heading1: sequence(st.Heading1), heading: sequence(st.Heading),
			emphasis: sequence(st.Emphasis), strong: sequence(st.Strong), code: sequence(st.Code),
			codeBlock: sequence(st.CodeBlock), link: sequence(st.Link), url: sequence(st.URL),
			quote: sequence(st.Quote), marker: sequence(st.Marker), rule: sequence(st.Rule),
			tableHeader: sequence(st.TableHeader),
		},
		cache: map[cacheKey][]string{},
	}
}

// Render draws text, cleaned of terminal escapes, as lines at most width
// cells wide, with a blank line between blocks.
func (r *Renderer) Render(text string, width int) []string {
	var out []string
	for i, b := range r.split(termtext.Clean(text)) {
		if i > 0 {
			out = append(out, "")
		}
		out = append(out, r.draw(b, width)...)
	}
	return out
}

// block is one top-level block: its parsed form and its own text, which
// keys the cache.
type block struct {
	node  parse.Block
	text  string
	start int // offset of its first line in the parsed text
}

// split parses text and cuts it into its top-level blocks. A block's text
// runs from the start of its first line to the next block's, without the
// blank lines between them.
func (r *Renderer) split(s string) []block {
	doc := parse.Parse(s)
	blocks := make([]block, len(doc.Blocks))
	for i, n := range doc.Blocks {
		end := len(s)
		if i+1 < len(doc.Starts) {
			end = doc.Starts[i+1]
		}
		blocks[i] = block{node: n, start: doc.Starts[i], text: strings.TrimRight(s[doc.Starts[i]:end], " \n")}
	}
	return blocks
}

// draw returns a block's lines at width, drawing it on first use.
func (r *Renderer) draw(b block, width int) []string {
	width = max(width, 1)
	key := cacheKey{width, b.text}
	if lines, ok := r.cache[key]; ok {
		return lines
	}
	lines := r.blockLines(b.node, width, 0)
	for i, l := range lines {
		if ansi.StringWidth(l) > width {
			lines[i] = ansi.Truncate(l, width, "")
		}
	}
	if len(r.cache) >= keptBlocks {
		clear(r.cache)
	}
	r.cache[key] = lines
	return lines
}
