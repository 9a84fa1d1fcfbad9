// Package overlay is the layer stack: every overlay and card is a Layer
// that takes the keys while it is on top, draws itself in its place and
// says its keys; the root pushes what is opened and takes off what
// closes, so "behind" is simply what is under the top. It also holds the
// layer that shows a child's transcript and the help that lays out keys
// by where they apply; the pickers (/model's, /resume's) share its subpackage pick.
package overlay

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/convo"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// TranscriptKeys are the keys of an open transcript; Help is the root's,
// which ? keeps over it.
type TranscriptKeys struct {
	Back, Up, Down, PageUp, PageDown, Top, Bottom, Expand, Stop, Help key.Binding
}

// Child is the sub-agent a transcript shows: its conversation, and its
// pane's line drawn over it.
type Child interface {
	ID() event.AgentID
	Conversation() *convo.Model
	HeaderLine(width int) string
	Live() bool
}

// Draw draws one entry of a conversation at width, its tool output
// whole when expanded: the conversation's own blocks, so an entry looks
// the same everywhere.
type Draw func(e convo.Entry, width int, expanded bool) []string

// Transcript is the full-screen view of one child's conversation: its
// prompt, every tool call and result, its text. It reads the child's
// conversation model, so it is live while the child runs, and it follows
// the bottom until scrolled up.
type Transcript struct {
	child    Child
	conv     *convo.Model
	stop     func() tea.Cmd // stops the child
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

// NewTranscript opens the transcript of child, following its bottom; x
// runs stop while the child lives.
func NewTranscript(child Child, draw Draw, keys TranscriptKeys, expanded bool, stop func() tea.Cmd) *Transcript {
	return &Transcript{child: child, conv: child.Conversation(), stop: stop, draw: draw, keys: keys, pinned: true, expanded: expanded}
}

// ID is the child whose transcript this is.
func (t *Transcript) ID() event.AgentID { return t.child.ID() }

// Expanded says whether tool output is shown whole.
func (t *Transcript) Expanded() bool { return t.expanded }

// SetSize fits the view to its page: width, and the pane's line and the
// lines under it.
func (t *Transcript) SetSize(width, height int) { t.width, t.height = width, max(height-1, 0) }

// Place is the page between the header and the status line.
func (t *Transcript) Place() Place { return Page }

// Route keeps ? for the root's help; the transcript takes every other
// key.
func (t *Transcript) Route(msg tea.KeyMsg) Route {
	if key.Matches(msg, t.keys.Help) {
		return Help
	}
	return Take
}

// wheelLines is how far one mouse wheel notch scrolls.
const wheelLines = 3

// Update scrolls the transcript (keys, the wheel), closes it, or stops
// the child; a new theme redraws it.
func (t *Transcript) Update(msg tea.Msg) tea.Cmd {
	var k tea.KeyMsg
	switch msg := msg.(type) {
	case Restyle:
		t.lines = nil
		return nil
	case tea.MouseMsg:
		t.wheel(msg)
		return nil
	case tea.KeyMsg:
		k = msg
	default:
		return nil
	}
	page := max(t.height-1, 1)
	switch {
	case key.Matches(k, t.keys.Back):
		return Hide(t)
	case key.Matches(k, t.keys.Stop):
		return t.stop()
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
	return nil
}

// wheel scrolls with the mouse wheel.
func (t *Transcript) wheel(msg tea.MouseMsg) {
	if msg.Action != tea.MouseActionPress {
		return
	}
	switch msg.Button {
	case tea.MouseButtonWheelUp:
		t.Scroll(-wheelLines)
	case tea.MouseButtonWheelDown:
		t.Scroll(wheelLines)
	}
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

// ShortHelp is the transcript's keys; x while the child can still be
// stopped.
func (t *Transcript) ShortHelp() []key.Binding {
	k := t.keys
	keys := []key.Binding{k.Back, k.Down, k.PageDown, k.Top, k.Bottom, k.Expand}
	if t.child.Live() {
		keys = append(keys, k.Stop)
	}
	return keys
}

// FullHelp is the transcript's keys under its name.
func (t *Transcript) FullHelp() []KeyGroup {
	return []KeyGroup{{Where: "transcript", Keys: t.ShortHelp()}}
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
	out := append(make([]string, 0, t.height+1), termtext.Fit(t.child.HeaderLine(t.width), t.width))
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
