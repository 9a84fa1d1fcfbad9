package markdown

import (
	"bytes"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/util"
)

// runs is a block's inline children as styled spans, base being the
// style of the block's plain text, with neighbours of one style joined:
// the wrapper breaks a line only at spaces or between runs, so a word
// like snake_case, which the parser cuts at each underscore, stays whole.
func (r *Renderer) runs(n ast.Node, src []byte, base style) []span {
	spans := r.inlines(n, src, base)
	out := spans[:0]
	for _, s := range spans {
		if last := len(out) - 1; last >= 0 && out[last].st == s.st && s.text != "\n" && out[last].text != "\n" {
			out[last].text += s.text
			continue
		}
		out = append(out, s)
	}
	return out
}

// inlines turns a block's inline children into styled spans, base being
// the style of the block's plain text.
func (r *Renderer) inlines(n ast.Node, src []byte, base style) []span {
	var out []span
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		out = r.inline(out, c, src, base)
	}
	return out
}

// inline appends the spans of one inline node.
func (r *Renderer) inline(out []span, n ast.Node, src []byte, base style) []span {
	switch n := n.(type) {
	case *ast.Text:
		value := n.Segment.Value(src)
		if !n.IsRaw() {
			value = unescape(value)
		}
		out = append(out, span{string(value), base})
		switch {
		case n.HardLineBreak():
			out = append(out, span{"\n", base})
		case n.SoftLineBreak():
			out = append(out, span{" ", base})
		}
	case *ast.String:
		out = append(out, span{string(n.Value), base})
	case *ast.CodeSpan:
		out = append(out, span{codeText(n, src), base + r.st.code})
	case *ast.Emphasis:
		st := r.st.emphasis
		if n.Level >= 2 {
			st = r.st.strong
		}
		return append(out, r.inlines(n, src, base+st)...)
	case *ast.Link:
		label := r.inlines(n, src, base+r.st.link)
		out = append(out, label...)
		if url := string(n.Destination); url != "" && url != plain(label) {
			out = append(out, span{" (" + url + ")", base + r.st.url})
		}
	case *ast.Image:
		alt := plain(r.inlines(n, src, base))
		out = append(out, span{"[image: " + alt + "]", base + r.st.link})
		if len(n.Destination) > 0 {
			out = append(out, span{" (" + string(n.Destination) + ")", base + r.st.url})
		}
	case *ast.AutoLink:
		out = append(out, span{string(n.Label(src)), base + r.st.link})
	case *ast.RawHTML:
		for i := range n.Segments.Len() {
			seg := n.Segments.At(i)
			out = append(out, span{string(seg.Value(src)), base})
		}
	default:
		return append(out, r.inlines(n, src, base)...)
	}
	return out
}

// codeText is a code span's text as written, its line endings spaces.
func codeText(n ast.Node, src []byte) string {
	var b strings.Builder
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Text:
			b.Write(c.Segment.Value(src))
			if c.SoftLineBreak() || c.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(c.Value)
		}
	}
	return strings.ReplaceAll(b.String(), "\n", " ")
}

// unescape resolves backslash escapes and character references the way
// an HTML renderer would, so "\*" shows as "*" and "&amp;" as "&".
func unescape(v []byte) []byte {
	if bytes.IndexByte(v, '\\') >= 0 {
		v = util.UnescapePunctuations(v)
	}
	if bytes.IndexByte(v, '&') >= 0 {
		v = util.ResolveEntityNames(util.ResolveNumericReferences(v))
	}
	return v
}

// plain is the text of spans without their styles.
func plain(spans []span) string {
	var b strings.Builder
	for _, s := range spans {
		b.WriteString(s.text)
	}
	return b.String()
}
