package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/markdown"
	"github.com/seed-e4e525a6/baton/ui/pane"
)

// transcriptView is the full-screen view of one child's transcript: its
// prompt, every tool call and result, its text. It is drawn from the
// pane's entries, so it is live while the child runs, and it follows the
// bottom until scrolled up.
type transcriptView struct {
	id       event.AgentID
	top      int  // first line shown when not pinned
	pinned   bool // follows the bottom
	expanded bool // its own ctrl+o, apart from the conversation's

	lines []string // drawn entries, cached by what they hold
	key   transcriptKey

	live     *markdown.Stream // draws the message streaming now
	liveAt   int              // its entry's index
	liveFrom *markdown.Renderer
}

// transcriptKey is what the drawing depends on: the entries' sizes (an
// entry only grows or gains a result), the width and the style
// generation.
type transcriptKey struct {
	entries, size, width, gen int
	expanded                  bool
}

// openTranscript shows a child's transcript full screen.
func (m *Model) openTranscript(p *pane.Pane) {
	m.viewer = &transcriptView{id: p.ID(), pinned: true, expanded: m.conv.rc.expanded}
	m.overlay = overlayTranscript
	m.input.Blur()
}

// closeTranscript goes back to the conversation, the pane keeping the
// focus if it still runs.
func (m *Model) closeTranscript() {
	m.overlay = overlayNone
	m.viewer = nil
	m.setFocus(m.focus)
}

// transcriptKey scrolls the transcript, stops its child, or closes it.
func (m *Model) transcriptKey(msg tea.KeyMsg) tea.Cmd {
	v, height := m.viewer, m.transcriptHeight()
	total, page := m.transcriptLines(), max(height-1, 1)
	switch {
	case key.Matches(msg, m.keys.Back):
		m.closeTranscript()
	case key.Matches(msg, m.keys.PageUp):
		v.scroll(-page, total, height)
	case key.Matches(msg, m.keys.PageDown):
		v.scroll(page, total, height)
	case key.Matches(msg, m.keys.CardUp):
		v.scroll(-1, total, height)
	case key.Matches(msg, m.keys.CardDown):
		v.scroll(1, total, height)
	case key.Matches(msg, m.keys.Top):
		v.top, v.pinned = 0, total <= height
	case key.Matches(msg, m.keys.Bottom):
		v.pinned = true
	case key.Matches(msg, m.keys.Expand):
		v.expanded = !v.expanded
	case key.Matches(msg, m.keys.Stop):
		if p, ok := m.agents.byID[v.id]; ok {
			return m.stopAgent(p)
		}
	case key.Matches(msg, m.keys.Help):
		m.help.ShowAll = !m.help.ShowAll
	}
	return nil
}

// scroll moves the view by delta lines; reaching the bottom follows it
// again.
func (v *transcriptView) scroll(delta, total, height int) {
	bottom := max(total-height, 0)
	if v.pinned {
		v.top = bottom
	}
	v.top = max(0, min(v.top+delta, bottom))
	v.pinned = v.top == bottom
}

// transcriptLines is how long the open transcript is now, drawn at the
// terminal's width.
func (m *Model) transcriptLines() int {
	p, ok := m.agents.byID[m.viewer.id]
	if !ok {
		return 0
	}
	return len(m.viewer.draw(&m.conv.rc, p.Entries(), m.width))
}

// transcriptHeight is the room for the transcript between the header
// with the pane's own line and the status line.
func (m *Model) transcriptHeight() int {
	return max(m.height-headerRows-1-statusRows-len(m.footerView()), 0)
}

// transcriptScreen draws the child's header line and height lines of its
// transcript.
func (m *Model) transcriptScreen(height int) []string {
	p, ok := m.agents.byID[m.viewer.id]
	if !ok {
		return make([]string, height+1)
	}
	p.SetSize(m.width, 1)
	v := m.viewer
	lines := v.draw(&m.conv.rc, p.Entries(), m.width)
	if v.pinned {
		v.top = max(len(lines)-height, 0)
	}
	v.top = max(0, min(v.top, max(len(lines)-height, 0)))
	out := append(make([]string, 0, height+1), fit(p.Header(), m.width))
	out = append(out, lines[v.top:min(len(lines), v.top+height)]...)
	for len(out) < height+1 {
		out = append(out, "")
	}
	return out
}

// draw renders the entries at width, reusing the last drawing while they
// are unchanged. It expands output by its own choice, not the
// conversation's.
func (v *transcriptView) draw(conv *renderCtx, entries []pane.Entry, width int) []string {
	rc := *conv
	rc.expanded = v.expanded
	k := transcriptKey{entries: len(entries), width: width, gen: rc.gen, expanded: v.expanded}
	for _, e := range entries {
		k.size += len(e.Title) + len(e.Body) + len(e.Summary)
	}
	if v.lines != nil && v.key == k {
		return v.lines
	}
	var lines []string
	for i, e := range entries {
		if i > 0 {
			lines = append(lines, "")
		}
		if e.Live && e.Kind == pane.Text && e.Title != "reasoning" {
			lines = append(lines, v.liveLines(&rc, e, i, width)...)
			continue
		}
		lines = append(lines, entryLines(&rc, e, width)...)
	}
	for i, line := range lines {
		lines[i] = fit(line, width)
	}
	v.lines, v.key = lines, k
	return lines
}

// liveLines draws the message a child streams now the way the
// conversation draws its own: finished blocks as Markdown, the open one
// raw. The stream starts over for a new message or a new theme.
func (v *transcriptView) liveLines(rc *renderCtx, e pane.Entry, at, width int) []string {
	if v.live == nil || v.liveAt != at || v.liveFrom != rc.markdown {
		v.live, v.liveAt, v.liveFrom = rc.markdown.NewStream(), at, rc.markdown
	}
	mark := rc.styles.Conversation.AssistantLabel.Render(markAssistant)
	return gutter(v.live.Lines(e.Body, width-2), mark)
}

// entryLines draws one entry the way the conversation draws its own
// blocks: a mark, a title, then the body under it.
func entryLines(rc *renderCtx, e pane.Entry, width int) []string {
	st := rc.styles
	body := func(style func(...string) string) []string {
		var out []string
		for _, para := range strings.Split(e.Body, "\n") {
			out = append(out, wrap(para, width-2)...)
		}
		for i, line := range out {
			out[i] = style(line)
		}
		return out
	}
	switch e.Kind {
	case pane.Prompt:
		return gutter(body(st.Conversation.User.Render), st.Conversation.UserLabel.Render(markUser))
	case pane.Message:
		return gutter(body(st.Conversation.User.Render), st.Conversation.UserLabel.Render("you › "))
	case pane.Text:
		mark := st.Conversation.AssistantLabel.Render(markAssistant)
		if e.Title == "reasoning" {
			return gutter(body(st.Conversation.Reasoning.Render), st.Conversation.Reasoning.Render("✻ "))
		}
		return gutter(rc.markdown.Render(e.Body, width-2), mark)
	case pane.ToolCall:
		return toolEntry(rc, e, width)
	}
	style := st.Conversation.Info
	if e.IsError {
		style = st.Conversation.Error
	}
	head := style.Render(e.Title)
	if e.Summary != "" {
		head += st.Tool.Summary.Render(" · " + e.Summary)
	}
	if strings.TrimSpace(e.Body) == "" {
		return []string{head}
	}
	return append([]string{head}, gutter(body(style.Render), "  ")...)
}

// toolEntry draws a tool call and its result the way the conversation
// does, collapsed until ctrl+o.
func toolEntry(rc *renderCtx, e pane.Entry, width int) []string {
	call := &toolCall{name: strings.Fields(e.Title + " x")[0], title: e.Title, state: toolRunning, summary: e.Summary}
	switch {
	case e.IsError:
		call.state = toolFailed
	case e.Summary != "" || e.Body != "":
		call.state = toolDone
	}
	if looksLikeDiff(e.Body) {
		call.diff = e.Body
	} else {
		call.output = e.Body
	}
	if e.Denied {
		call.state, call.summary, call.output = toolDenied, e.Summary, ""
	}
	return call.render(rc, width)
}
