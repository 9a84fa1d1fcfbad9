package parse

import "strings"

// Block is one block of a document: *Heading, *Paragraph,
// *ThematicBreak, *CodeBlock, *Quote, *List or *HTMLBlock.
type Block interface{ block() }

// Heading is an ATX (# Title) or setext (Title over ===) heading.
type Heading struct {
	Level int    // 1 to 6
	Text  string // its inline source, to read with Inlines
}

// Paragraph is a run of text lines.
type Paragraph struct {
	// Lines are its lines as written, without the prefixes of the blocks
	// it sits in and without their leading spaces; the last also without
	// its trailing ones.
	Lines []string
}

// Text is the paragraph's inline source, its lines joined, to read with
// Inlines.
func (p *Paragraph) Text() string { return strings.Join(p.Lines, "\n") }

// ThematicBreak is a horizontal rule (---, ***, ___).
type ThematicBreak struct{}

// CodeBlock is a fenced or an indented code block.
type CodeBlock struct {
	Fenced bool
	Info   string   // a fenced block's info string (its language), unescaped
	Lines  []string // its lines as written, without their indent
}

// Quote is a block quote.
type Quote struct{ Blocks []Block }

// List is a bullet or an ordered list.
type List struct {
	Ordered bool
	Start   int  // an ordered list's first number
	Marker  byte // '-', '+' or '*' of a bullet list; '.' or ')' of an ordered one
	// Tight is a list whose items are not separated by blank lines and
	// whose items hold no blocks separated by one.
	Tight bool
	Items []Item
}

// Item is one item of a list: the blocks in it.
type Item struct{ Blocks []Block }

// HTMLBlock is a block of raw HTML, kept as written.
type HTMLBlock struct{ Lines []string }

func (*Heading) block()       {}
func (*Paragraph) block()     {}
func (*ThematicBreak) block() {}
func (*CodeBlock) block()     {}
func (*Quote) block()         {}
func (*List) block()          {}
func (*HTMLBlock) block()     {}

// Inline is one inline of a paragraph or heading: *Text, *CodeSpan,
// *Emphasis, *Link, *Image, *AutoLink or *RawHTML.
type Inline interface{ inline() }

// Break is what ends a text at the end of a source line.
type Break uint8

// The breaks a text can end with.
const (
	NoBreak   Break = iota
	SoftBreak       // a line ending inside a paragraph: a space
	HardBreak       // two spaces or a backslash before it: a new line
)

// Text is literal text, its escapes and character references resolved.
type Text struct {
	Text  string
	Break Break
}

// CodeSpan is `code`, its line endings spaces.
type CodeSpan struct{ Text string }

// Emphasis is *emphasis* or, Strong, **strong emphasis**.
type Emphasis struct {
	Strong   bool
	Children []Inline
}

// Link is [text](destination "title").
type Link struct {
	Destination, Title string
	Children           []Inline
}

// Image is ![alt](destination "title").
type Image struct {
	Destination, Title string
	Children           []Inline // its alt text
}

// AutoLink is <https://example.com> or <user@example.com>: Label is the
// address as written.
type AutoLink struct{ Label string }

// RawHTML is an inline HTML tag, comment or declaration, as written.
type RawHTML struct{ Text string }

func (*Text) inline()     {}
func (*CodeSpan) inline() {}
func (*Emphasis) inline() {}
func (*Link) inline()     {}
func (*Image) inline()    {}
func (*AutoLink) inline() {}
func (*RawHTML) inline()  {}
