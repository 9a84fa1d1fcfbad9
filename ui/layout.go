package ui

import (
	"strings"

	"github.com/seed-e4e525a6/baton/ui/header"
	"github.com/seed-e4e525a6/baton/ui/overlay"
	"github.com/seed-e4e525a6/baton/ui/termtext"
	"github.com/seed-e4e525a6/baton/ui/todos"
)

// Fixed rows around the conversation besides the header's: the status
// line.
const (
	statusRows = 1
	// minConversationRows is what a card leaves of the conversation when
	// the body has room for it.
	minConversationRows = 4
	// minCardRoom is the body height below which a card takes all of
	// it: the diff or command it asks about comes before the context.
	minCardRoom = 12
)

// resize records the terminal size and fits the components to it.
func (m *Model) resize(width, height int) {
	m.width, m.height = max(width, 0), max(height, 0)
	m.layout()
}

// layout fits the components that keep their own width.
func (m *Model) layout() {
	m.input.SetSize(m.width)
	m.help.Width = m.width
	m.status.SetSize(m.width)
	m.fitBody()
}

// fitBody fits the agents area, then gives each layer the room of its
// place: a card the body's bottom (the conversation keeps a few lines
// above it), a transcript the page under the header. Both follow the
// panes and the input, so they are refitted after every message.
func (m *Model) fitBody() {
	m.agents.Fit(m.width, m.roomBelowHeader(), m.cardActive())
	m.conv.SetSize(m.width, m.conversationHeight())
	for _, l := range m.layers.All() {
		switch l.Place() {
		case overlay.Screen:
			l.SetSize(m.width, m.height)
		case overlay.Page:
			l.SetSize(m.width, max(m.height-header.Rows-statusRows-m.footerHeight(), 0))
		case overlay.Body:
			l.SetSize(m.width, cardRoom(m.conversationHeight()))
		case overlay.Input:
			l.SetSize(m.width, overlay.InputRows)
		}
	}
}

// fit refits the body when the next View rebuilds the screen, and
// otherwise leaves it for that frame: between two frames nothing reads
// the sizes but the handlers of keys and the mouse, which refit first.
func (m *Model) fit() {
	if !m.frame.stale {
		m.frame.unfitted = true
		return
	}
	m.fitBody()
	m.frame.unfitted = false
}

// roomBelowHeader is what the conversation and the agents area share
// once the header, status, input and help are placed.
func (m *Model) roomBelowHeader() int {
	used := header.Rows + statusRows + m.inputHeight() + m.footerHeight()
	return max(m.height-used, 0)
}

// conversationHeight is what is left for the conversation (and the
// overlays drawn over it) once the fixed parts and the agents area are
// placed.
func (m *Model) conversationHeight() int {
	room := m.roomBelowHeader() - m.agents.Height()
	return room - m.todoRows(room)
}

// inputHeight is how many lines inputView takes, computed.
func (m *Model) inputHeight() int {
	if m.topAt(overlay.Input) {
		return overlay.InputRows
	}
	return m.input.Height()
}

// inputView is the prompt box, or the layer on top in its place (the
// line for a child's message), cut to the width.
func (m *Model) inputView() []string {
	if m.topAt(overlay.Input) {
		return m.fitted.lines(m.layers.Top().View(), m.width)
	}
	return m.fitted.lines(m.input.View(), m.width)
}

// topAt says whether the layer on top is drawn at place.
func (m *Model) topAt(place overlay.Place) bool {
	top := m.layers.Top()
	return top != nil && top.Place() == place
}

// View returns the screen, built at most once per frame: the last one
// while nothing changed since.
func (m Model) View() string { return strings.Join(m.view(), "\n") }

// view is View in place and line by line, as the running program hands
// it to its screen: joining a frame only for the screen to split it again
// cost more than most of what a streaming frame changes.
func (m *Model) view() []string {
	if view, ok := m.frame.cached(); ok {
		return view
	}
	return m.frame.keep(m.build(), m.clock.now())
}

// fitCache remembers how the lines outside the conversation were cut to
// the width: the input box and the keys rarely change from one frame to
// the next, and a line of box drawing is measured grapheme by grapheme.
type fitCache struct {
	width int
	cut   map[string]string
	// view is the last view split into lines, and the lines cut: the
	// input box is drawn once per change and read every frame.
	view      string
	viewLines []string
}

// lines is view split into lines, each cut to width.
func (c *fitCache) lines(view string, width int) []string {
	if c.viewLines != nil && c.width == width && c.view == view {
		return c.viewLines
	}
	lines := strings.Split(view, "\n")
	c.fit(lines, width)
	c.view, c.viewLines = view, lines
	return lines
}

// fitCacheMax bounds the lines remembered; past it, they are forgotten.
const fitCacheMax = 256

// fit cuts every line to width in place.
func (c *fitCache) fit(lines []string, width int) {
	if c.width != width || len(c.cut) > fitCacheMax {
		c.width, c.cut = width, make(map[string]string, len(lines))
	}
	for i, line := range lines {
		cut, ok := c.cut[line]
		if !ok {
			cut = termtext.Fit(line, width)
			c.cut[line] = cut
		}
		lines[i] = cut
	}
}

// build draws the screen: header, conversation with any overlay over its
// bottom rows, status, input and help. It is exactly the terminal's
// height, and no line is wider than the terminal: the conversation's lines
// are cut when they are drawn and cached, the few others here.
func (m *Model) build() []string {
	if m.width <= 0 || m.height <= 0 {
		return nil
	}
	switch {
	case m.topAt(overlay.Screen):
		return strings.Split(m.layers.Top().View(), "\n")
	case m.topAt(overlay.Page):
		return m.pageFrame()
	}
	input, footer := m.inputView(), m.footerView()
	m.fitted.fit(footer, m.width)
	room := max(m.height-header.Rows-statusRows-len(input)-len(footer), 0)
	agents := min(m.agents.Height(), room)
	todo := m.todoRows(room - agents)
	lines := make([]string, 0, m.height)
	lines = append(lines, m.header.View(m.width, m.agents.InBackground(), m.approvals.Len())...)
	lines = append(lines, m.bodyView(room-agents-todo)...)
	if todo > 0 {
		lines = append(lines, todos.Lines(m.todos, m.styles, m.width, todo)...)
	}
	lines = append(lines, m.agents.View(agents)...)
	lines = append(lines, m.status.View())
	lines = append(lines, input...)
	lines = append(lines, footer...)
	if len(lines) > m.height { // too small for everything: the input and status stay
		keep := m.height - len(input) - statusRows
		lines = append(lines[:max(keep, 0)], lines[len(lines)-len(footer)-len(input)-statusRows:len(lines)-len(footer)]...)
		lines = lines[max(len(lines)-m.height, 0):]
	}
	return lines
}

// pageFrame is the screen while a layer takes the page (a child's
// transcript): the header, the layer, the status and the keys.
func (m *Model) pageFrame() []string {
	footer := m.footerView()
	m.fitted.fit(footer, m.width)
	lines := make([]string, 0, m.height)
	lines = append(lines, m.header.View(m.width, m.agents.InBackground(), m.approvals.Len())...)
	lines = append(lines, strings.Split(m.layers.Top().View(), "\n")...)
	lines = append(lines, m.status.View())
	lines = append(lines, footer...)
	if len(lines) > m.height {
		lines = lines[:m.height]
	}
	return lines
}

// bodyView draws the conversation, or the welcome text before anything
// was said, and under it the layer on top that takes the body's bottom
// (the active card, the model picker): the conversation shrinks so its
// newest lines, often what the card is about, stay in sight. The
// completion popup, shown only while typing, goes over its bottom rows.
func (m *Model) bodyView(height int) []string {
	if m.topAt(overlay.Body) {
		layer := strings.Split(m.layers.Top().View(), "\n") // sized for cardRoom(height) in Update
		layer = layer[max(len(layer)-height, 0):]
		return append(m.conv.View(m.width, height-len(layer)), layer...)
	}
	body := m.conv.View(m.width, height)
	over := m.input.PopupView(height)
	copy(body[len(body)-len(over):], over)
	return body
}

// cardRoom is how tall a card may be in a body of height lines: it
// leaves a few lines of the conversation above it, unless the body is so
// short that the card would show too little of what it asks about.
func cardRoom(height int) int {
	if height < minCardRoom {
		return max(height, 1)
	}
	return height - min(minConversationRows, height/3)
}

// todoRows is how many of room's lines the main agent's list takes under
// the conversation: none once every item is done and the turn is over,
// none while a card waits (in a short terminal the list pushed the card's
// title out of sight; the list is back once it is answered), and never
// more than a third of room, so the conversation keeps most.
func (m *Model) todoRows(room int) int {
	if !m.busy && !todos.Open(m.todos) || m.cardActive() { // a waiting card needs the rows more
		return 0
	}
	return todos.Rows(m.todos, room/3)
}
