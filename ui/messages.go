package ui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
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

// assistantMessage is the main agent's text. While it streams it is drawn
// as plain wrapped text, and the lines up to the last newline are kept, so
// a delta re-wraps only the unfinished paragraph; once done it is rendered
// as Markdown, once per width.
type assistantMessage struct {
	text        strings.Builder
	done        bool
	interrupted bool

	stable      []string // styled lines of text[:stableLen]
	stableLen   int      // always just after a newline
	stableKey   [2]int   // width and style generation the stable lines were drawn at
	markdownErr bool     // glamour failed once; stay plain
}

func (b *assistantMessage) render(rc *renderCtx, width int) []string {
	var lines []string
	if b.done && !b.markdownErr {
		md, err := rc.markdown.render(b.text.String(), width-2)
		b.markdownErr = err != nil
		if err == nil {
			lines = gutter(md, rc.styles.Conversation.AssistantLabel.Render(markAssistant))
		}
	}
	if lines == nil {
		lines = b.streamed(rc, width)
	}
	if b.interrupted {
		lines = append(lines, rc.styles.Conversation.Interrupted.Render(markResult+"interrupted"))
	}
	return lines
}

// streamed draws the text plain, reusing the lines of finished paragraphs.
func (b *assistantMessage) streamed(rc *renderCtx, width int) []string {
	text := b.text.String()
	if key := [2]int{width, rc.gen}; key != b.stableKey {
		b.stable, b.stableLen, b.stableKey = nil, 0, key
	}
	if cut := strings.LastIndexByte(text, '\n') + 1; cut > b.stableLen {
		b.stable = append(b.stable, b.draw(rc, text[b.stableLen:cut-1], width, len(b.stable) == 0)...)
		b.stableLen = cut
	}
	tail := b.draw(rc, text[b.stableLen:], width, len(b.stable) == 0)
	return append(b.stable[:len(b.stable):len(b.stable)], tail...)
}

// draw wraps and styles a run of paragraphs; first says whether it starts
// the message and so carries the mark.
func (b *assistantMessage) draw(rc *renderCtx, text string, width int, first bool) []string {
	st := rc.styles.Conversation
	mark := st.AssistantLabel.Render(markAssistant)
	if !first {
		mark = "  "
	}
	var wrapped []string
	for _, para := range strings.Split(text, "\n") {
		wrapped = append(wrapped, wrap(para, width-2)...)
	}
	return gutter(paint(wrapped, st.Assistant), mark)
}

// reasoning is the model's thinking, when the provider streams it. It
// shows as one line unless tool output is expanded.
type reasoning struct {
	text strings.Builder
	done bool
}

func (b *reasoning) render(rc *renderCtx, width int) []string {
	st := rc.styles.Conversation.Reasoning
	text := b.text.String()
	if rc.expanded {
		var lines []string
		for _, para := range strings.Split(strings.TrimSpace(text), "\n") {
			lines = append(lines, wrap(para, width-2)...)
		}
		return gutter(paint(lines, st), st.Render("✻ "))
	}
	if b.done {
		return []string{fit(st.Render("✻ thought · "+plural(len(strings.Fields(text)), "word")+" (ctrl+o to show)"), width)}
	}
	last := strings.TrimSpace(text[strings.LastIndexByte(strings.TrimRight(text, "\n"), '\n')+1:])
	return []string{fit(st.Render("✻ thinking… "+last), width)}
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
