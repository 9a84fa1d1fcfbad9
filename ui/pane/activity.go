package pane

import (
	"unicode/utf8"

	"github.com/seed-e4e525a6/baton/ui/convo"
)

// The activity under a running pane's header is a short log of what the
// child did last: tool calls with their results, the tail of its text,
// messages and notices. Only the newest items are kept, and only their
// last lines are ever drawn.
const (
	maxItems  = 16
	tailBytes = 2048 // of a message, enough for the lines a pane can show
	indent    = "  "
	olderText = 2 // lines a text that is not the newest may take
)

// itemKind says what one activity item is.
type itemKind int

const (
	itemTool itemKind = iota
	itemText
	itemThinking
	itemMessage
	itemNotice
	itemError
)

// item is one activity entry, drawn from an entry of the conversation.
// A live text item is the message being streamed.
type item struct {
	kind    itemKind
	text    string // one line except for text and thinking
	callID  string
	summary string
	done    bool // a tool call finished
	failed  bool
	live    bool
}

// activity keeps the lines last laid out from the conversation's newest
// entries; version counts the pane's own changes (state, questions).
type activity struct {
	version int
	cache   struct {
		version, convo, width, need int
		valid                       bool
		lines                       []string
	}
}

// items are the newest entries of the conversation as activity items,
// at most maxItems: the prompt and the final status are not activity.
func (p *Pane) items() []item {
	entries := p.convo.Last(maxItems)
	out := make([]item, 0, len(entries))
	for _, e := range entries {
		switch e.Kind {
		case convo.Text:
			out = append(out, item{kind: itemText, text: e.Body, live: e.Live})
		case convo.Reasoning:
			out = append(out, item{kind: itemThinking, text: e.Body, live: e.Live})
		case convo.ToolCall:
			out = append(out, item{kind: itemTool, text: e.Title, callID: e.CallID, summary: e.Summary, done: e.Done, failed: e.IsError})
		case convo.Message:
			out = append(out, item{kind: itemMessage, text: oneLine(e.Body)})
		case convo.Notice:
			kind := itemNotice
			if e.IsError {
				kind = itemError
			}
			out = append(out, item{kind: kind, text: oneLine(e.Body)})
		}
	}
	return out
}

// tail keeps the last n bytes of s, starting at a whole character.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[len(s)-n:]
	for i := 0; i < len(s) && i < utf8.UTFMax; i++ {
		if utf8.RuneStart(s[i]) {
			return s[i:]
		}
	}
	return s
}

// activityLines lays the newest items out into at most need lines
// under the header, within width; they are cached until an event or the
// width changes. A shorter pane shows the last of them: each older item
// keeps its last lines, so the last n of these are what n lines would
// hold.
func (p *Pane) activityLines(width, need int) []string {
	a := &p.activity
	if need <= 0 {
		return nil
	}
	c := &a.cache
	if c.valid && c.version == a.version && c.convo == p.convo.Version() && c.width == width && c.need == need {
		return c.lines
	}
	items := p.items()
	var chunks [][]string
	count := 0
	for i := len(items) - 1; i >= 0 && count < need; i-- {
		limit := need - count
		if i < len(items)-1 {
			limit = min(limit, olderText)
		}
		chunk := p.itemLines(items[i], limit, width)
		chunks = append(chunks, chunk)
		count += len(chunk)
	}
	lines := make([]string, 0, count)
	for i := len(chunks) - 1; i >= 0; i-- {
		lines = append(lines, chunks[i]...)
	}
	if len(lines) > need {
		lines = lines[len(lines)-need:]
	}
	c.version, c.convo, c.width, c.need, c.valid, c.lines = a.version, p.convo.Version(), width, need, true, lines
	return lines
}

// itemLines draws one item in at most limit lines.
func (p *Pane) itemLines(it item, limit, width int) []string {
	st := &p.styles.Pane
	switch it.kind {
	case itemText, itemThinking:
		return p.textLines(it, limit, width)
	case itemMessage:
		return []string{fit(indent+st.Cursor.Render("you: ")+st.Muted.Render(it.text), width)}
	case itemNotice:
		return []string{fit(indent+st.Muted.Render("· "+it.text), width)}
	case itemError:
		return []string{fit(indent+st.Failed.Render("✗ "+it.text), width)}
	}
	return []string{fit(p.toolLine(it), width)}
}

// toolLine draws a call: running, waiting for the person, or with its
// result.
func (p *Pane) toolLine(it item) string {
	st := &p.styles.Pane
	switch {
	case it.failed:
		return indent + st.Failed.Render("✗ ") + st.Muted.Render(it.text) + st.Failed.Render(" ("+it.summary+")")
	case it.done && it.summary != "":
		return indent + st.Done.Render("✓ ") + st.Muted.Render(it.text+" ("+it.summary+")")
	case it.done:
		return indent + st.Done.Render("✓ ") + st.Muted.Render(it.text)
	case p.asks(it.callID):
		return indent + st.Waiting.Render("? ") + p.styles.Tool.Title.Render(it.text) + st.Waiting.Render(" (waiting for approval)")
	}
	return indent + st.Busy.Render("▸ ") + p.styles.Tool.Title.Render(it.text)
}

// asks reports whether the call waits for the person's answer.
func (p *Pane) asks(callID string) bool {
	for _, id := range p.asking {
		if id == callID {
			return true
		}
	}
	return false
}
