package conversation

import (
	"strings"

	"github.com/seed-e4e525a6/baton/ui/convo"
)

// entryBlock is the block that draws an entry of the main agent's
// conversation, reusing the one it drew before (a streaming message
// keeps its Markdown stream, a task call the child it started).
func entryBlock(old block, e convo.Entry) block {
	switch e.Kind {
	case convo.Prompt:
		return &userMessage{text: e.Body}
	case convo.Message:
		return &userMessage{text: "(from you) " + e.Body}
	case convo.Reasoning:
		return &reasoning{text: e.Body, done: !e.Live}
	case convo.Text:
		b, ok := old.(*assistantMessage)
		if !ok {
			b = &assistantMessage{}
		}
		b.text, b.done, b.interrupted = e.Body, !e.Live, e.Stopped
		return b
	case convo.ToolCall:
		b, ok := old.(*toolCall)
		if !ok {
			b = &toolCall{}
		}
		b.fill(e)
		return b
	case convo.Compaction:
		return &compactedBlock{line: e.Title, summary: e.Body}
	}
	kind := noteInfo
	switch {
	case e.Stopped:
		kind = noteInterrupted
	case e.IsError:
		kind = noteError
	}
	return &note{kind: kind, text: e.Body}
}

// entryLines draws one entry of a child's conversation with the blocks
// the main conversation draws its own with, so a message, a thought or
// a tool call looks the same in the conversation, the transcript view
// and /subagents log: finished text as Markdown, calls collapsed until
// ctrl+o.
func entryLines(rc *renderCtx, e convo.Entry, width int) []string {
	st := rc.styles
	switch e.Kind {
	case convo.Message:
		return gutter(paint(wrap(e.Body, width-2), st.Conversation.User), st.Conversation.UserLabel.Render("you › "))
	case convo.Prompt, convo.Reasoning, convo.Text, convo.ToolCall:
		return entryBlock(nil, e).render(rc, width)
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
	var body []string
	for _, para := range strings.Split(e.Body, "\n") {
		body = append(body, wrap(para, width-2)...)
	}
	return append([]string{head}, gutter(paint(body, style), "  ")...)
}

// DrawEntry draws one entry of a child's conversation at width the way
// this conversation draws its own, with full output when expanded: what
// a child's transcript view and /subagents log show.
func (c *Model) DrawEntry(e convo.Entry, width int, expanded bool) []string {
	rc := c.rc
	rc.expanded = expanded
	return entryLines(&rc, e, width)
}
