// Package conversation is the main conversation as the person sees it:
// the main agent's convo.Model drawn as blocks (messages, thoughts, tool
// calls with their results, a child's fold line in place of the task call
// that started it), the output of the person's commands between them, and
// the scroll position. A block is drawn once per (version, width, theme)
// and only the blocks on screen are drawn, so a frame costs the same with
// ten messages or ten thousand.
package conversation

import (
	"strings"

	"github.com/seed-e4e525a6/baton/themes"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/command"
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
	// assistantMark is the answer's gutter mark in the theme's colour,
	// drawn once per theme: a streaming answer is drawn every frame.
	assistantMark string
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
	// drawn is what block drew for lines, before it was cut to the
	// width, kept while the entry may change: a line drawn again the
	// same is not measured again.
	drawn []string

	entry, entryVersion int // the entry shown; entry is -1 for a command's output
}

// Model is the view of the main agent's conversation (a convo.Model,
// like every child's) with the output of the person's commands between
// its entries, and its scroll position. It is a pointer shared by copies
// of the root model, so its caches survive Bubble Tea's value updates.
type Model struct {
	rc    renderCtx
	main  *convo.Model     // what the main agent said and did
	items []*item          // what is drawn, in order
	open  map[int]*item    // items whose entry may still change, by entry
	calls map[string]*item // every tool call by its ID, for the children it starts

	children map[event.AgentID]*item // a child's task line, by its ID

	pinned bool   // follows the bottom
	top    anchor // first visible line when not pinned
	demo   bool   // the welcome says the offline demo runs

	keys          KeyMap
	width, height int // the view's room when nothing covers it (SetSize)
}

// New makes an empty conversation that answers keys and is drawn with
// styles; demo says the offline demo runs, which the welcome screen
// tells.
func New(keys KeyMap, styles *themes.Styles, demo bool) *Model {
	c := &Model{main: convo.New(""), open: map[int]*item{}, calls: map[string]*item{}, children: map[event.AgentID]*item{}, pinned: true, demo: demo, keys: keys}
	c.SetStyles(styles)
	return c
}

// SetStyles switches theme: every cached drawing is stale.
func (c *Model) SetStyles(styles *themes.Styles) {
	c.rc.styles = styles
	c.rc.markdown = markdown.New(styles.Markdown)
	c.rc.assistantMark = styles.Conversation.AssistantLabel.Render(markAssistant)
	c.rc.gen++
}

// ToggleExpanded shows or hides full tool output and reasoning.
func (c *Model) ToggleExpanded() {
	c.rc.expanded = !c.rc.expanded
	c.rc.gen++
}

// Expanded says whether full tool output and reasoning are shown; a
// child's transcript follows it.
func (c *Model) Expanded() bool { return c.rc.expanded }

// Reset empties the transcript for a new conversation.
func (c *Model) Reset() {
	c.main, c.items = convo.New(""), nil
	clear(c.open)
	clear(c.calls)
	clear(c.children)
	c.pinned, c.top = true, anchor{}
}

// Empty says whether nothing has been said yet.
func (c *Model) Empty() bool { return len(c.items) == 0 }

// Note appends a line of baton's own (what a command reports) and follows
// the bottom, so it is seen.
func (c *Model) Note(text string) {
	c.add(&note{kind: noteInfo, text: text})
	c.ToBottom()
}

// Block appends a command's output and follows the bottom.
func (c *Model) Block(b command.Block) {
	c.add(&commandBlock{b})
	c.ToBottom()
}

// add appends a block of the person's command and returns its item.
func (c *Model) add(b block) *item {
	it := &item{block: b, entry: -1}
	c.items = append(c.items, it)
	return it
}

// lines returns item i drawn at width, with the blank line that separates
// it from the one before. Lines are cut to width here, once per drawing,
// so even a terminal narrower than a block's marks is never overflowed.
//
// A block that changed (a streaming answer, every frame) keeps the cut of
// each line it drew the same as last time, so a frame measures the lines
// that changed, not the whole answer.
func (c *Model) lines(i, width int) []string {
	it := c.items[i]
	key := [3]int{it.version, width, c.rc.gen}
	if it.lines != nil && it.key == key {
		return it.lines
	}
	var before []string // the lines cut last time, which still hold
	if it.lines != nil && it.key[1] == width && it.key[2] == c.rc.gen {
		before = it.lines[min(i, 1):]
	}
	drawn := it.block.render(&c.rc, width)
	out := make([]string, 0, len(drawn)+1)
	if i > 0 {
		out = append(out, "")
	}
	for j, line := range drawn {
		if j < len(before) && j < len(it.drawn) && it.drawn[j] == line {
			out = append(out, before[j])
			continue
		}
		out = append(out, termtext.Fit(line, width))
	}
	it.lines, it.drawn, it.key = out, nil, key
	if it.entry >= 0 && c.open[it.entry] == it { // it may change again
		it.drawn = drawn
	}
	return it.lines
}

// Main is the main agent's conversation model the view is drawn from.
func (c *Model) Main() *convo.Model { return c.main }

// Apply folds one event of the main agent into its conversation model
// and shows what changed. The main agent's notices and retries are the
// status line's, not the conversation's.
func (c *Model) Apply(ev event.Event) {
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
func (c *Model) sync() {
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
func (c *Model) seen() int {
	for i := len(c.items) - 1; i >= 0; i-- {
		if c.items[i].entry >= 0 {
			return c.items[i].entry + 1
		}
	}
	return 0
}

// rebuild rebuilds an item's block from its entry when the entry changed,
// and keeps it among the open ones while it may change again.
func (c *Model) rebuild(it *item, e convo.Entry) {
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

// Answers are the main agent's messages, oldest first, as sent: what
// /copy copies.
func (c *Model) Answers() []string {
	var out []string
	for i := range c.main.Len() {
		if e := c.main.At(i); e.Kind == convo.Text && strings.TrimSpace(e.Body) != "" {
			out = append(out, e.Body)
		}
	}
	return out
}
