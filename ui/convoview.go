package ui

import (
	"strings"

	"github.com/seed-e4e525a6/baton/ui/convo"
	"github.com/seed-e4e525a6/baton/ui/diffview"
)

// entryLines draws one entry of a child's conversation with the blocks
// the main conversation draws its own with, so a message, a thought or
// a tool call looks the same in the conversation, the transcript view
// and /subagents log: finished text as Markdown, calls collapsed until
// ctrl+o.
func entryLines(rc *renderCtx, e convo.Entry, width int) []string {
	st := rc.styles
	switch e.Kind {
	case convo.Prompt:
		return (&userMessage{text: e.Body}).render(rc, width)
	case convo.Message:
		return gutter(paint(wrap(e.Body, width-2), st.Conversation.User), st.Conversation.UserLabel.Render("you › "))
	case convo.Reasoning:
		b := &reasoning{done: !e.Live}
		b.text.WriteString(e.Body)
		return b.render(rc, width)
	case convo.Text:
		b := &assistantMessage{done: !e.Live}
		b.text.WriteString(e.Body)
		return b.render(rc, width)
	case convo.ToolCall:
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
	var body []string
	for _, para := range strings.Split(e.Body, "\n") {
		body = append(body, wrap(para, width-2)...)
	}
	return append([]string{head}, gutter(paint(body, style), "  ")...)
}

// toolEntry draws a tool call and its result as the conversation does.
func toolEntry(rc *renderCtx, e convo.Entry, width int) []string {
	call := &toolCall{name: strings.Fields(e.Title + " x")[0], title: e.Title, state: toolRunning, summary: e.Summary}
	switch {
	case e.Denied:
		call.state = toolDenied
		return call.render(rc, width)
	case e.IsError:
		call.state = toolFailed
	case e.Done:
		call.state = toolDone
	}
	if diffview.Looks(e.Body) {
		call.diff = e.Body
	} else {
		call.output = e.Body
	}
	return call.render(rc, width)
}
