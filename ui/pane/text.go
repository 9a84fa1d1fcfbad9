package pane

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/ui/markdown"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// prose draws the child's messages as the conversation draws the main
// agent's: finished blocks as Markdown, the open one raw. Its prose is
// muted so the pane stays quieter than the conversation; code, bullets
// and links keep their colours.
type prose struct {
	r      *markdown.Renderer
	theme  string           // the palette r was made for
	stream *markdown.Stream // the message streaming now
}

// renderer is the Markdown renderer of the pane's current theme.
func (p *Pane) renderer() *markdown.Renderer {
	if p.prose.r == nil || p.prose.theme != p.styles.Palette.Name {
		st := p.styles.Markdown
		st.Text = p.styles.Pane.Muted
		p.prose.r, p.prose.theme, p.prose.stream = markdown.New(st), p.styles.Palette.Name, nil
	}
	return p.prose.r
}

// textLines draws the last limit lines of a message within width,
// skipping blank lines that would waste the little room there is.
// Thinking is not Markdown and shows as its raw tail.
func (p *Pane) textLines(it item, limit, width int) []string {
	room := max(width-len(indent), 1)
	var lines []string
	switch {
	case it.kind == itemThinking:
		lines = p.thinkingLines(it, limit, room)
	case it.live:
		r := p.renderer()
		if p.prose.stream == nil {
			p.prose.stream = r.NewStream()
		}
		// Twice the lines: blank ones are skipped below.
		lines = p.prose.stream.Last(it.text, room, 2*limit)
	default:
		lines = p.renderer().Render(it.text, room)
	}
	out := make([]string, 0, limit)
	for i := len(lines) - 1; i >= 0 && len(out) < limit; i-- {
		if !termtext.Blank(lines[i]) {
			out = append(out, fit(indent+lines[i], width))
		}
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// thinkingLines wraps the tail of the reasoning, in muted italics.
func (p *Pane) thinkingLines(it item, limit, width int) []string {
	// limit lines of width cells rarely take more than twice as many
	// bytes (a CJK character is three bytes in two cells); wrapping only
	// those keeps a streaming frame cheap.
	text := tail(it.text, min(tailBytes, 2*limit*width))
	style := p.styles.Pane.Muted.Italic(true)
	var lines []string
	for _, line := range strings.Split(ansi.Wrap(text, width, ""), "\n") {
		lines = append(lines, style.Render(line))
	}
	return lines
}
