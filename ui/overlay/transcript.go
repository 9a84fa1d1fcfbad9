// Package overlay holds the views that take the whole screen or its keys
// over the conversation for a while, or that a command puts into it: a
// child's transcript, the help that lays out the keys by where they
// apply, /subagents' table and info, and /agents' list of types; the
// /model picker is its subpackage modelpick. Each owns its state, keys
// and drawing; the root opens one at a time and routes keys to it.
package overlay

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/convo"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// TranscriptKeys are the keys of an open transcript.
type TranscriptKeys struct {
	Back, Up, Down, PageUp, PageDown, Top, Bottom, Expand, Stop key.Binding
}

// Draw draws one entry of a conversation at width, its tool output
// whole when expanded: the conversation's own blocks, so an entry looks
// the same everywhere.
type Draw func(e convo.Entry, width int, expanded bool) []string

// Action is what a key asks of the root beyond the transcript.
type Action int

// The actions.
const (
	None  Action = iota
	Close        // go back to the conversation
	Stop         // stop the child
)

// Transcript is the full-screen view of one child's conversation: its
// prompt, every tool call and result, its text. It reads the child's
// conversation model, so it is live while the child runs, and it follows
// the bottom until scrolled up.
type Transcript struct {
	id       event.AgentID
	conv     *convo.Model
	header   func(width int) string // the child's pane line
	draw     Draw
	keys     TranscriptKeys
	width    int
	height   int  // lines for the conversation, under the pane line
	top      int  // first line shown when not pinned
	pinned   bool // follows the bottom
	expanded bool // its own ctrl+o, apart from the conversation's

	lines []string // the drawing, cached by what it depends on
	key   [3]int   // the conversation's version, the width, expanded
}

// NewTranscript opens the transcript of child id, following its bottom.
func NewTranscript(id event.AgentID, conv *convo.Model, header func(int) string, draw Draw, keys TranscriptKeys, expanded bool) *Transcript {
	return &Transcript{id: id, conv: conv, header: header, draw: draw, keys: keys, pinned: true, expanded: expanded}
}

// ID is the child whose transcript this is.
func (t *Transcript) ID() event.AgentID { return t.id }

// Expanded says whether tool output is shown whole.
func (t *Transcript) Expanded() bool { return t.expanded }

// SetSize fits the view: width, and the lines under the pane's line.
func (t *Transcript) SetSize(width, height int) { t.width, t.height = width, max(height, 0) }

// Restyle forgets the drawing, for a new theme.
func (t *Transcript) Restyle() { t.lines = nil }

// Update scrolls the transcript or asks the root to close it or stop
// the child.
func (t *Transcript) Update(msg tea.Msg) Action {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return None
	}
	page := max(t.height-1, 1)
	switch {
	case key.Matches(k, t.keys.Back):
		return Close
	case key.Matches(k, t.keys.Stop):
		return Stop
	case key.Matches(k, t.keys.PageUp):
		t.Scroll(-page)
	case key.Matches(k, t.keys.PageDown):
		t.Scroll(page)
	case key.Matches(k, t.keys.Up):
		t.Scroll(-1)
	case key.Matches(k, t.keys.Down):
		t.Scroll(1)
	case key.Matches(k, t.keys.Top):
		t.top, t.pinned = 0, len(t.drawn()) <= t.height
	case key.Matches(k, t.keys.Bottom):
		t.pinned = true
	case key.Matches(k, t.keys.Expand):
		t.expanded = !t.expanded
	}
	return None
}

// Scroll moves the view by delta lines; reaching the bottom follows it
// again.
func (t *Transcript) Scroll(delta int) {
	bottom := max(len(t.drawn())-t.height, 0)
	if t.pinned {
		t.top = bottom
	}
	t.top = max(0, min(t.top+delta, bottom))
	t.pinned = t.top == bottom
}

// ShortHelp is the transcript's keys; running says the child can still
// be stopped.
func (t *Transcript) ShortHelp(running bool) []key.Binding {
	k := t.keys
	keys := []key.Binding{k.Back, k.Down, k.PageDown, k.Top, k.Bottom, k.Expand}
	if running {
		keys = append(keys, k.Stop)
	}
	return keys
}

// View draws the child's pane line and the transcript's lines, exactly
// height+1 lines.
func (t *Transcript) View() string {
	lines := t.drawn()
	top := t.top
	if t.pinned {
		top = len(lines) - t.height
	}
	top = max(0, min(top, len(lines)-t.height))
	out := append(make([]string, 0, t.height+1), termtext.Fit(t.header(t.width), t.width))
	out = append(out, lines[top:min(len(lines), top+t.height)]...)
	for len(out) < t.height+1 {
		out = append(out, "")
	}
	return strings.Join(out, "\n")
}

// drawn is the conversation drawn at the view's width, reused while the
// conversation, the width and the expansion are unchanged.
func (t *Transcript) drawn() []string {
	k := [3]int{t.conv.Version(), t.width, 0}
	if t.expanded {
		k[2] = 1
	}
	if t.lines != nil && t.key == k {
		return t.lines
	}
	var lines []string
	for i, e := range t.conv.Entries() {
		if i > 0 {
			lines = append(lines, "")
		}
		lines = append(lines, t.draw(e, t.width, t.expanded)...)
	}
	for i, line := range lines {
		lines[i] = termtext.Fit(line, t.width)
	}
	t.lines, t.key = lines, k
	return lines
}
