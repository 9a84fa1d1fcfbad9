package ui

import (
	"strings"

	"github.com/seed-e4e525a6/baton/themes"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/markdown"
)

// renderCtx is what every block needs to draw itself. gen changes when
// every drawing is stale at once (a new theme, output expanded).
type renderCtx struct {
	styles   *themes.Styles
	markdown *markdown.Renderer
	expanded bool
	gen      int
}

// block is one entry of the transcript: a message, a tool call, a note.
type block interface {
	render(rc *renderCtx, width int) []string
}

// item wraps a block with its drawing, cached by (version, width, gen):
// a finished block is drawn once per width, however many frames show it.
type item struct {
	block   block
	version int
	lines   []string
	key     [3]int
}

// conversation is the main agent's transcript and its scroll position.
// It is a pointer shared by copies of the Model, so its caches survive
// Bubble Tea's value updates.
type conversation struct {
	rc    renderCtx
	items []*item
	live  *item            // the assistant message streaming now
	think *item            // the reasoning streaming now
	tools map[string]*item // running tool calls by call ID

	calls    map[string]*item        // every tool call by its ID, for the children it starts
	children map[event.AgentID]*item // a child's task line, by its ID

	pinned bool   // follows the bottom
	top    anchor // first visible line when not pinned
}

func newConversation(styles *themes.Styles) *conversation {
	c := &conversation{tools: map[string]*item{}, calls: map[string]*item{}, children: map[event.AgentID]*item{}, pinned: true}
	c.setStyles(styles)
	return c
}

// setStyles switches theme: every cached drawing is stale.
func (c *conversation) setStyles(styles *themes.Styles) {
	c.rc.styles = styles
	c.rc.markdown = markdown.New(styles.Markdown)
	c.rc.gen++
}

// toggleExpanded shows or hides full tool output and reasoning.
func (c *conversation) toggleExpanded() {
	c.rc.expanded = !c.rc.expanded
	c.rc.gen++
}

// reset empties the transcript for a new conversation.
func (c *conversation) reset() {
	c.items, c.live, c.think = nil, nil, nil
	clear(c.tools)
	clear(c.calls)
	clear(c.children)
	c.pinned, c.top = true, anchor{}
}

// empty says whether nothing has been said yet.
func (c *conversation) empty() bool { return len(c.items) == 0 }

// add appends a block and returns its item.
func (c *conversation) add(b block) *item {
	it := &item{block: b}
	c.items = append(c.items, it)
	return it
}

// lines returns item i drawn at width, with the blank line that separates
// it from the one before. Lines are cut to width here, once per drawing,
// so even a terminal narrower than a block's marks is never overflowed.
func (c *conversation) lines(i, width int) []string {
	it := c.items[i]
	if key := [3]int{it.version, width, c.rc.gen}; it.lines == nil || it.key != key {
		body := it.block.render(&c.rc, width)
		for j, line := range body {
			body[j] = fit(line, width)
		}
		if i > 0 {
			body = append([]string{""}, body...)
		}
		it.lines, it.key = body, key
	}
	return it.lines
}

// Apply adds what one event of the main agent says to the transcript.
func (c *conversation) Apply(ev event.Event) {
	switch ev := ev.(type) {
	case event.TurnStarted:
		c.endStreams(false)
		if ev.Wake { // a background result, not the person, opened it
			c.add(&note{kind: noteInfo, text: ev.Prompt})
			break
		}
		c.add(&userMessage{text: ev.Prompt})
	case event.AgentStarted: // a child's conversation opens with its task
		c.endStreams(false)
		c.add(&userMessage{text: ev.Prompt})
	case event.AgentMessage:
		c.endStreams(false)
		c.add(&userMessage{text: "(from you) " + ev.Text})
	case event.ReasoningDelta:
		if c.think == nil {
			c.think = c.add(&reasoning{})
		}
		c.think.block.(*reasoning).text.WriteString(ev.Text)
		c.think.version++
	case event.TextDelta:
		c.endThinking()
		if c.live == nil {
			c.live = c.add(&assistantMessage{})
		}
		c.live.block.(*assistantMessage).text.WriteString(ev.Text)
		c.live.version++
	case event.MessageDone:
		c.messageDone(ev.Text)
	case event.ToolStarted:
		c.endStreams(false)
		it := c.add(&toolCall{name: ev.Name, title: ev.Title})
		c.tools[ev.CallID], c.calls[ev.CallID] = it, it
	case event.ToolFinished:
		c.toolFinished(ev)
	case event.ErrorOccurred:
		// The message it cut short stays open: its MessageDone, sent
		// around the error, completes it rather than adding it twice.
		c.endThinking()
		c.add(&note{kind: noteError, text: ev.Message})
	case event.TurnEnded:
		c.turnEnded(ev.Status)
	case event.Compacted:
		if ev.Summary != "" {
			c.endStreams(false)
			c.add(&compactedBlock{ev: ev})
		}
	}
}

// messageDone finishes the streaming message with the engine's whole
// text, which wins over the deltas; a message that never streamed is
// added whole.
func (c *conversation) messageDone(text string) {
	c.endThinking()
	if c.live == nil {
		if strings.TrimSpace(text) == "" {
			return
		}
		c.live = c.add(&assistantMessage{})
	}
	msg := c.live.block.(*assistantMessage)
	if text != "" {
		msg.text.Reset()
		msg.text.WriteString(text)
	}
	c.endStreams(false)
}

// toolFinished records a call's outcome; a result for a call never seen
// starting still shows.
func (c *conversation) toolFinished(ev event.ToolFinished) {
	it, ok := c.tools[ev.CallID]
	if !ok {
		it = c.add(&toolCall{name: ev.Name, title: ev.Name})
	}
	delete(c.tools, ev.CallID)
	call := it.block.(*toolCall)
	call.finish(ev.IsError, ev.Summary, ev.Output)
	if ev.Denied {
		call.deny(ev.DenyReason)
	}
	call.diff = ev.Diff
	it.version++
}

// turnEnded closes what still streams, marks calls that never finished,
// and says why a turn stopped early.
func (c *conversation) turnEnded(status event.Status) {
	interrupted := status == event.StatusInterrupted || status == event.StatusCancelled
	hadLive := c.live != nil
	c.endStreams(interrupted)
	for id, it := range c.tools {
		it.block.(*toolCall).state = toolInterrupted
		it.version++
		delete(c.tools, id)
	}
	switch {
	case interrupted && !hadLive:
		c.add(&note{kind: noteInterrupted, text: "interrupted"})
	case status == event.StatusMaxSteps:
		c.add(&note{kind: noteInterrupted, text: "stopped: the step limit was reached"})
	case status == event.StatusTimedOut:
		c.add(&note{kind: noteInterrupted, text: "stopped: the turn timed out"})
	}
}

// endStreams marks the streaming message and reasoning done; a message
// cut short by an interruption says so.
func (c *conversation) endStreams(interrupted bool) {
	c.endThinking()
	if c.live != nil {
		msg := c.live.block.(*assistantMessage)
		msg.done, msg.interrupted = true, interrupted
		c.live.version++
		c.live = nil
	}
}

// endThinking marks the streaming reasoning done.
func (c *conversation) endThinking() {
	if c.think != nil {
		c.think.block.(*reasoning).done = true
		c.think.version++
		c.think = nil
	}
}
