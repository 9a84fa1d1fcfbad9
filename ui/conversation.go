package ui

import (
	"strings"

	"github.com/seed-e4e525a6/baton/themes"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/convo"
	"github.com/seed-e4e525a6/baton/ui/markdown"
	"github.com/seed-e4e525a6/baton/ui/termtext"
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
// An item that shows an entry of the main agent's conversation knows
// the entry's index and the entry's version it was built from.
type item struct {
	block   block
	version int
	lines   []string
	key     [3]int

	entry, entryVersion int // the entry shown; entry is -1 for a command's output
}

// conversation is the view of the main agent's conversation (a
// convo.Model, like every child's) with the output of the person's
// commands between its entries, and its scroll position. It is a pointer
// shared by copies of the Model, so its caches survive Bubble Tea's
// value updates.
type conversation struct {
	rc    renderCtx
	main  *convo.Model     // what the main agent said and did
	items []*item          // what is drawn, in order
	open  map[int]*item    // items whose entry may still change, by entry
	calls map[string]*item // every tool call by its ID, for the children it starts

	children map[event.AgentID]*item // a child's task line, by its ID

	pinned bool   // follows the bottom
	top    anchor // first visible line when not pinned
}

func newConversation(styles *themes.Styles) *conversation {
	c := &conversation{main: convo.New(""), open: map[int]*item{}, calls: map[string]*item{}, children: map[event.AgentID]*item{}, pinned: true}
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
	c.main, c.items = convo.New(""), nil
	clear(c.open)
	clear(c.calls)
	clear(c.children)
	c.pinned, c.top = true, anchor{}
}

// empty says whether nothing has been said yet.
func (c *conversation) empty() bool { return len(c.items) == 0 }

// add appends a block of the person's command and returns its item.
func (c *conversation) add(b block) *item {
	it := &item{block: b, entry: -1}
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
			body[j] = termtext.Fit(line, width)
		}
		if i > 0 {
			body = append([]string{""}, body...)
		}
		it.lines, it.key = body, key
	}
	return it.lines
}

// Apply folds one event of the main agent into its conversation model
// and shows what changed. The main agent's notices and retries are the
// status line's, not the conversation's.
func (c *conversation) Apply(ev event.Event) {
	switch ev.(type) {
	case event.Notice, event.Retrying:
		return
	}
	if c.main.Apply(ev) {
		c.sync()
	}
}

// sync brings the items up to date with the main agent's conversation:
// the entries that may still change are rebuilt if they did, new ones
// get items of their own.
func (c *conversation) sync() {
	for i, it := range c.open {
		c.rebuild(it, c.main.At(i))
	}
	for i := c.seen(); i < c.main.Len(); i++ {
		e := c.main.At(i)
		it := &item{entry: i, entryVersion: -1}
		c.items = append(c.items, it)
		c.rebuild(it, e)
		if e.Kind == convo.ToolCall {
			c.calls[e.CallID] = it
		}
	}
}

// seen is how many of the main agent's entries have items.
func (c *conversation) seen() int {
	for i := len(c.items) - 1; i >= 0; i-- {
		if c.items[i].entry >= 0 {
			return c.items[i].entry + 1
		}
	}
	return 0
}

// rebuild rebuilds an item's block from its entry when the entry changed,
// and keeps it among the open ones while it may change again.
func (c *conversation) rebuild(it *item, e convo.Entry) {
	if it.block != nil && it.entryVersion == e.Version {
		return
	}
	it.block = entryBlock(it.block, e)
	it.entryVersion = e.Version
	it.version++
	if e.Live || (e.Kind == convo.ToolCall && !e.Done && !e.Stopped) {
		c.open[it.entry] = it
	} else {
		delete(c.open, it.entry)
	}
}

// answers are the main agent's messages, oldest first, as sent.
func (c *conversation) answers() []string {
	var out []string
	for i := range c.main.Len() {
		if e := c.main.At(i); e.Kind == convo.Text && strings.TrimSpace(e.Body) != "" {
			out = append(out, e.Body)
		}
	}
	return out
}
