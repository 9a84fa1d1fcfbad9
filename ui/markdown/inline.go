package markdown

import (
	"strings"

	"github.com/seed-e4e525a6/baton/ui/markdown/parse"
)

// runs is inlines as styled spans, base being the style of the block's
// plain text, with neighbours of one style joined: the wrapper breaks a
// line only at spaces or between runs, so a word like snake_case, which
// the parser cuts at each underscore, stays whole.
func (r *Renderer) runs(ins []parse.Inline, base style) []span {
	spans := r.inlines(nil, ins, base)
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

// inlines appends the spans of inlines to out.
func (r *Renderer) inlines(out []span, ins []parse.Inline, base style) []span {
	for _, in := range ins {
		out = r.inline(out, in, base)
	}
	return out
}

// inline appends the spans of one inline.
func (r *Renderer) inline(out []span, n parse.Inline, base style) []span {
	switch n := n.(type) {
	case *parse.Text:
		out = append(out, span{n.Text, base})
		switch n.Break {
		case parse.HardBreak:
			out = append(out, span{"\n", base})
		case parse.SoftBreak:
			out = append(out, span{" ", base})
		}
	case *parse.CodeSpan:
		out = append(out, span{n.Text, base + r.st.code})
	case *parse.Emphasis:
		st := r.st.emphasis
		if n.Strong {
			st = r.st.strong
		}
		return r.inlines(out, n.Children, base+st)
	case *parse.Link:
		label := r.inlines(nil, n.Children, base+r.st.link)
		out = append(out, label...)
		if url := n.Destination; url != "" && url != plain(label) {
			out = append(out, span{" (" + url + ")", base + r.st.url})
		}
	case *parse.Image:
		alt := plain(r.inlines(nil, n.Children, base))
		out = append(out, span{"[image: " + alt + "]", base + r.st.link})
		if n.Destination != "" {
			out = append(out, span{" (" + n.Destination + ")", base + r.st.url})
		}
	case *parse.AutoLink:
		out = append(out, span{n.Label, base + r.st.link})
	case *parse.RawHTML:
		// A tag may run over lines; its line endings are spaces, as
		// between words, so that no drawn line holds a newline.
		out = append(out, span{strings.ReplaceAll(n.Text, "\n", " "), base})
	}
	return out
}

// plain is the text of spans without their styles.
func plain(spans []span) string {
	var b strings.Builder
	for _, s := range spans {
		b.WriteString(s.text)
	}
	return b.String()
}
