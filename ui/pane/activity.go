package pane

import "unicode/utf8"

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

// item is one activity entry. A live text item has no text of its own:
// it draws the tail of the message being streamed.
type item struct {
	kind    itemKind
	text    string // cleaned, one line except for text and thinking
	name    string // the tool's name
	callID  string
	summary string
	done    bool // a tool call finished
	failed  bool
	live    bool
}

// activity holds the items and the lines last drawn from them.
type activity struct {
	items   []item
	version int
	cache   struct {
		version, width, need int
		valid                bool
		lines                []string
	}
}

// add appends an item, dropping the oldest beyond maxItems.
func (a *activity) add(it item) {
	a.items = append(a.items, it)
	if n := len(a.items) - maxItems; n > 0 {
		a.items = append(a.items[:0], a.items[n:]...)
	}
}

// liveIndex finds the item of kind that is still being streamed.
func (a *activity) liveIndex(kind itemKind) int {
	for i := len(a.items) - 1; i >= 0; i-- {
		if a.items[i].live && a.items[i].kind == kind {
			return i
		}
	}
	return -1
}

// live makes sure a streamed message of kind has an item.
func (a *activity) live(kind itemKind) {
	if a.liveIndex(kind) < 0 {
		a.add(item{kind: kind, live: true})
	}
}

// settle ends the streamed message of kind with its final text; an empty
// text removes its item.
func (a *activity) settle(kind itemKind, text string) {
	i := a.liveIndex(kind)
	switch {
	case text == "" && i >= 0:
		a.items = append(a.items[:i], a.items[i+1:]...)
	case text == "":
	case i >= 0:
		a.items[i].text, a.items[i].live = tail(text, tailBytes), false
	default:
		a.add(item{kind: kind, text: tail(text, tailBytes)})
	}
}

// finishTool marks a call done with its short result.
func (a *activity) finishTool(callID, name, summary string, failed bool) {
	for i := len(a.items) - 1; i >= 0; i-- {
		if it := &a.items[i]; it.kind == itemTool && it.callID == callID && !it.done {
			it.done, it.failed, it.summary = true, failed, summary
			return
		}
	}
	a.add(item{kind: itemTool, text: name, name: name, callID: callID, summary: summary, done: true, failed: failed})
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

// activityLines draws the newest items into the lines under the header,
// at most height-1 of them within width, cached until an event or the
// size changes.
func (p *Pane) activityLines(width int) []string {
	need := p.height - 1 - p.todoRows()
	a := &p.activity
	if need <= 0 || len(a.items) == 0 {
		return nil
	}
	c := &a.cache
	if c.valid && c.version == a.version && c.width == width && c.need == need {
		return c.lines
	}
	var chunks [][]string
	count := 0
	for i := len(a.items) - 1; i >= 0 && count < need; i-- {
		limit := need - count
		if i < len(a.items)-1 {
			limit = min(limit, olderText)
		}
		chunk := p.itemLines(a.items[i], limit, width)
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
	c.version, c.width, c.need, c.valid, c.lines = a.version, width, need, true, lines
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
