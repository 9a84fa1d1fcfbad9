package conversation

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/ui/markdown"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// Gutter marks: the first cells of a block say what it is.
const (
	markUser      = "› "
	markAssistant = "● "
	markTool      = "⏺ "
	markDenied    = "⊘ "
	markResult    = "  ⎿ "
)

// userMessage is a prompt the person sent.
type userMessage struct{ text string }

func (b *userMessage) render(rc *renderCtx, width int) []string {
	st := rc.styles.Conversation
	return gutter(paint(wrap(b.text, width-2), st.User), st.UserLabel.Render(markUser))
}

// assistantMessage is the main agent's text, drawn as Markdown. While it
// streams, its finished blocks are drawn once each and the open one stays
// raw; once done, the whole is rendered from the same cached blocks, so
// nothing it showed moves.
type assistantMessage struct {
	text        string
	done        bool
	interrupted bool
	stream      *markdown.Stream // draws text while it streams, for one renderer
	streamBy    *markdown.Renderer
	margin      gutterCache // the stream's lines with their gutter
}

func (b *assistantMessage) render(rc *renderCtx, width int) []string {
	var lines []string
	if b.done {
		lines = gutter(rc.markdown.Render(b.text, width-2), rc.assistantMark)
		b.margin = gutterCache{}
	} else {
		if b.streamBy != rc.markdown {
			b.stream, b.streamBy = rc.markdown.NewStream(), rc.markdown
		}
		lines = b.margin.draw(b.stream.Lines(b.text, width-2), rc.assistantMark)
	}
	if b.interrupted {
		lines = append(lines, rc.styles.Conversation.Interrupted.Render(markResult+"interrupted"))
	}
	return lines
}

// reasoning is the model's thinking, when the provider streams it. It
// shows as one line unless tool output is expanded.
type reasoning struct {
	text string
	done bool
}

func (b *reasoning) render(rc *renderCtx, width int) []string {
	st := rc.styles.Conversation.Reasoning
	text := b.text
	if rc.expanded {
		var lines []string
		for _, para := range strings.Split(strings.TrimSpace(text), "\n") {
			lines = append(lines, wrap(para, width-2)...)
		}
		return gutter(paint(lines, st), st.Render("✻ "))
	}
	if b.done {
		return []string{termtext.Fit(st.Render("✻ thought · "+plural(len(strings.Fields(text)), "word")+" (ctrl+o to show)"), width)}
	}
	last := strings.TrimSpace(text[strings.LastIndexByte(strings.TrimRight(text, "\n"), '\n')+1:])
	return []string{termtext.Fit(st.Render("✻ thinking… "+last), width)}
}

// noteKind says what a note reports, which sets its mark and colour.
type noteKind int

const (
	noteInfo noteKind = iota
	noteError
	noteInterrupted
)

// note is a line from baton itself: command output, an error with the
// provider's reason, a turn that stopped early.
type note struct {
	kind noteKind
	text string
}

func (b *note) render(rc *renderCtx, width int) []string {
	st := rc.styles.Conversation
	style, mark := st.Info, "  "
	switch b.kind {
	case noteError:
		style, mark = st.Error, "✗ "
	case noteInterrupted:
		style, mark = st.Interrupted, markResult
	}
	var lines []string
	for _, para := range strings.Split(b.text, "\n") {
		// An indented line (a field of a listing) hangs under its indent.
		body := strings.TrimLeft(para, " ")
		indent := strings.Repeat(" ", len(para)-len(body))
		for _, line := range wrap(body, width-ansi.StringWidth(mark)-len(indent)) {
			lines = append(lines, indent+line)
		}
	}
	return gutter(paint(lines, style), style.Render(mark))
}

// compactedBlock is the fold line a compaction leaves in the
// conversation; ctrl+o shows the summary.
type compactedBlock struct{ line, summary string }

func (b *compactedBlock) render(rc *renderCtx, width int) []string {
	st := rc.styles.Conversation
	line := "⊟ " + b.line
	if !rc.expanded {
		return []string{termtext.Fit(st.Info.Render(line+" · ctrl+o shows it"), width)}
	}
	lines := []string{termtext.Fit(st.Info.Render(line), width)}
	for _, l := range wrap(b.summary, max(width-4, 1)) {
		lines = append(lines, "    "+st.Reasoning.Render(l))
	}
	return lines
}
