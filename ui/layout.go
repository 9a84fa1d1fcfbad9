package ui

import (
	"strings"

	"github.com/seed-e4e525a6/baton/ui/todos"
)

// Fixed rows around the conversation: the header and its rule, and the
// status line.
const (
	headerRows = 2
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
	m.message.SetSize(max(m.width-4, 1))
	if m.review != nil {
		m.review.SetSize(m.width, m.height)
	}
	if m.quitAsk != nil {
		m.quitAsk.SetSize(m.width)
	}
	m.fitBody()
}

// fitBody fits the agents area, then gives the cards their room: the
// conversation keeps a few lines above them. Both follow the panes and
// the input, so they are refitted after every message.
func (m *Model) fitBody() {
	m.fitAgents()
	if m.viewer != nil {
		m.viewer.SetSize(m.width, m.transcriptHeight())
	}
	if m.approvals.Len() > 0 {
		m.approvals.SetSize(m.width, cardRoom(m.conversationHeight()))
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
	used := headerRows + statusRows + m.inputHeight() + m.footerHeight()
	return max(m.height-used, 0)
}

// conversationHeight is what is left for the conversation (and the
// overlays drawn over it) once the fixed parts and the agents area are
// placed.
func (m *Model) conversationHeight() int {
	room := m.roomBelowHeader() - m.agents.area
	return room - m.todoRows(room)
}

// inputHeight is how many lines inputView takes, computed.
func (m *Model) inputHeight() int {
	if m.overlay != overlayMessage {
		return m.input.Height()
	}
	return 3 // the message line in its frame
}

// inputView is the prompt box, or the line for a child's message in its
// place while that is open.
func (m *Model) inputView() []string {
	if m.overlay != overlayMessage {
		return strings.Split(m.input.View(), "\n")
	}
	box := m.styles.Input.FocusedFrame.Width(max(m.width-2, 1)).Render(m.message.View())
	return strings.Split(box, "\n")
}

// View returns the screen, built at most once per frame: the last one
// while nothing changed since.
func (m Model) View() string {
	if view, ok := m.frame.cached(); ok {
		return view
	}
	return m.frame.keep(m.build())
}

// build draws the screen: header, conversation with any overlay over its
// bottom rows, status, input and help. It is exactly the terminal's
// height, and no line is wider than the terminal: the conversation's lines
// are cut when they are drawn and cached, the few others here.
func (m Model) build() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	if m.overlay == overlayTranscript {
		return m.transcriptFrame()
	}
	if m.overlay == overlayReview && m.review != nil {
		return m.review.View()
	}
	input, footer := m.inputView(), m.footerView()
	for _, part := range [][]string{input, footer} {
		for i, line := range part {
			part[i] = fit(line, m.width)
		}
	}
	room := max(m.height-headerRows-statusRows-len(input)-len(footer), 0)
	agents := min(m.agents.area, room)
	todo := m.todoRows(room - agents)
	lines := make([]string, 0, m.height)
	lines = append(lines, m.headerView()...)
	lines = append(lines, m.bodyView(room-agents-todo)...)
	lines = append(lines, m.todoView(todo)...)
	lines = append(lines, m.agentsView(agents)...)
	lines = append(lines, m.status.View())
	lines = append(lines, input...)
	lines = append(lines, footer...)
	if len(lines) > m.height { // too small for everything: the input and status stay
		keep := m.height - len(input) - statusRows
		lines = append(lines[:max(keep, 0)], lines[len(lines)-len(footer)-len(input)-statusRows:len(lines)-len(footer)]...)
		lines = lines[max(len(lines)-m.height, 0):]
	}
	return strings.Join(lines, "\n")
}

// transcriptFrame is the screen while a child's transcript is open: the
// header, the child's line and its transcript, the status and the keys.
func (m *Model) transcriptFrame() string {
	footer := m.footerView()
	for i, line := range footer {
		footer[i] = fit(line, m.width)
	}
	lines := make([]string, 0, m.height)
	lines = append(lines, m.headerView()...)
	lines = append(lines, strings.Split(m.viewer.View(), "\n")...)
	lines = append(lines, m.status.View())
	lines = append(lines, footer...)
	if len(lines) > m.height {
		lines = lines[:m.height]
	}
	return strings.Join(lines, "\n")
}

// bodyView draws the conversation, or the welcome text before anything
// was said, and under it the active card: the conversation shrinks so
// its newest lines, often what the card is about, stay in sight. The
// completion popup, shown only while typing, goes over its bottom rows.
func (m *Model) bodyView(height int) []string {
	if m.overlay == overlayModel {
		pick := m.pickerView(height)
		return append(m.conversationView(height-len(pick)), pick...)
	}
	if m.overlay == overlayQuit {
		ask := m.quitAsk.View()
		ask = ask[max(len(ask)-height, 0):]
		return append(m.conversationView(height-len(ask)), ask...)
	}
	if m.cardActive() {
		card := strings.Split(m.approvals.View(), "\n") // sized for cardRoom(height) in Update
		card = card[max(len(card)-height, 0):]
		return append(m.conversationView(height-len(card)), card...)
	}
	body := m.conversationView(height)
	over := m.input.PopupView(height)
	copy(body[len(body)-len(over):], over)
	return body
}

// conversationView is the conversation in height lines, or the welcome
// text before anything was said.
func (m *Model) conversationView(height int) []string {
	if m.conv.empty() {
		return m.welcomeView(height)
	}
	return m.conv.view(m.width, height)
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

// welcomeExamples are the two prompts the welcome offers: a question,
// and a change (in the demo, the one that shows a write card).
var welcomeExamples = [2]string{"what does this project do, and where does it start?", "add a --verbose flag and a test for it"}

// welcomeView is the first screen: what baton is and how to start.
func (m *Model) welcomeView(height int) []string {
	st := m.styles.Conversation
	lines := []string{
		st.AssistantLabel.Render("baton") + st.Info.Render(" · a coding agent that delegates to sub-agents"),
		"",
		st.Info.Render("Ask about this folder, or ask for a change. For example:"),
		st.UserLabel.Render("  › ") + st.User.Render(welcomeExamples[0]),
		st.UserLabel.Render("  › ") + st.User.Render(welcomeExamples[1]),
		"",
		st.Info.Render("/help lists commands and keys · ? shows all keys"),
	}
	if m.opts.Demo {
		lines = append(lines, "",
			st.Interrupted.Render("demo (offline): a scripted model answers and delegates to sub-agents."),
			st.Info.Render("To connect a real model, quit and set OPENAI_API_KEY, and optionally"),
			st.Info.Render("OPENAI_BASE_URL (any OpenAI-compatible endpoint) and BATON_MODEL."))
	}
	body := make([]string, height)
	for i := 0; i < height && i < len(lines); i++ {
		body[i] = fit(lines[i], m.width)
	}
	return body
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

// todoView draws the list in exactly rows lines.
func (m *Model) todoView(rows int) []string {
	if rows <= 0 {
		return nil
	}
	return todos.Lines(m.todos, m.styles, m.width, rows)
}
