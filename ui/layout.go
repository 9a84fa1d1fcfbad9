package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"

	"github.com/seed-e4e525a6/baton/ui/pane"

	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// Fixed rows around the conversation: the header and its rule, and the
// status line.
const (
	headerRows = 2
	statusRows = 1
)

// resize records the terminal size and fits the components to it.
func (m *Model) resize(width, height int) {
	m.width, m.height = max(width, 0), max(height, 0)
	m.layout()
}

// layout fits the components that keep their own width.
func (m *Model) layout() {
	m.input.setWidth(m.width)
	m.help.Width = m.width
	m.reason.setWidth(innerWidth(m.width))
	m.message.setWidth(max(m.width-4, 1))
	if m.overlay == overlayEdit {
		m.editor.setSize(innerWidth(m.width), max(m.conversationHeight()-4, 1))
	}
}

// roomBelowHeader is what the conversation and the agents area share
// once the header, status, input and help are placed.
func (m *Model) roomBelowHeader() int {
	used := headerRows + statusRows + len(m.inputView()) + len(m.footerView())
	return max(m.height-used, 0)
}

// conversationHeight is what is left for the conversation (and the
// overlays drawn over it) once the fixed parts and the agents area are
// placed.
func (m *Model) conversationHeight() int {
	room := m.roomBelowHeader()
	return room - m.agentsHeight(room)
}

// inputView is the prompt box, or the line for a child's message in its
// place while that is open.
func (m *Model) inputView() []string {
	if m.overlay != overlayMessage {
		return m.input.view(m.width)
	}
	box := m.styles.Input.FocusedFrame.Width(max(m.width-2, 1)).Render(m.message.view())
	return strings.Split(box, "\n")
}

// View draws the screen: header, conversation with any overlay over its
// bottom rows, status, input and help. It is exactly the terminal's
// height, and no line is wider than the terminal: the conversation's lines
// are cut when they are drawn and cached, the few others here.
func (m Model) View() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	if m.overlay == overlayTranscript {
		return m.transcriptFrame()
	}
	input, footer := m.inputView(), m.footerView()
	for _, part := range [][]string{input, footer} {
		for i, line := range part {
			part[i] = fit(line, m.width)
		}
	}
	room := max(m.height-headerRows-statusRows-len(input)-len(footer), 0)
	agents := m.agentsHeight(room)
	lines := make([]string, 0, m.height)
	lines = append(lines, m.headerView()...)
	lines = append(lines, m.bodyView(room-agents)...)
	lines = append(lines, m.agentsView(agents)...)
	lines = append(lines, m.statusView())
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
	lines = append(lines, m.transcriptScreen(m.transcriptHeight())...)
	lines = append(lines, m.statusView())
	lines = append(lines, footer...)
	if len(lines) > m.height {
		lines = lines[:m.height]
	}
	return strings.Join(lines, "\n")
}

// bodyView draws the conversation, or the welcome text before anything
// was said, with the card or the completion popup over its bottom rows.
func (m *Model) bodyView(height int) []string {
	var body []string
	if m.conv.empty() {
		body = m.welcomeView(height)
	} else {
		body = m.conv.view(m.width, height)
	}
	var over []string
	switch {
	case m.cardActive():
		over = m.cardView(height)
	case m.input.ta.Focused():
		over = m.input.popupView(m.width)
	}
	over = over[max(len(over)-height, 0):]
	copy(body[len(body)-len(over):], over)
	return body
}

// welcomeView is the first screen: what baton is and how to start.
func (m *Model) welcomeView(height int) []string {
	st := m.styles.Conversation
	lines := []string{
		st.AssistantLabel.Render("baton") + st.Info.Render(" · a coding agent that delegates to sub-agents"),
		"",
		st.Info.Render("Ask about this folder, or ask for a change."),
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

// footerView is the help: one line of the keys that can fire now, or all
// of them after "?".
func (m *Model) footerView() []string {
	if m.help.ShowAll {
		return strings.Split(m.help.FullHelpView(m.fullHelpKeys()), "\n")
	}
	return []string{m.help.ShortHelpView(m.shortHelpKeys())}
}

// shortHelpKeys are the keys that can fire in the current state, the
// most useful first: the footer cuts the rest when it runs out of room.
func (m *Model) shortHelpKeys() []key.Binding {
	k := m.keys
	switch m.overlay {
	case overlayApproval:
		return m.cardHelpKeys()
	case overlayReason:
		return []key.Binding{relabel(k.Confirm, "deny"), relabel(k.Cancel, "deny without a reason"), k.Quit}
	case overlayEdit:
		return []key.Binding{relabel(k.Confirm, "approve edited prompt"), k.Newline, relabel(k.Cancel, "back to the card"), k.Quit}
	case overlayMessage:
		return []key.Binding{relabel(k.Confirm, "send"), k.Cancel, k.Quit}
	case overlayTranscript:
		keys := []key.Binding{k.Back, k.CardDown, k.PageDown, k.Top, k.Bottom, k.Expand}
		if p, ok := m.agents.byID[m.viewer.id]; ok && !p.State().Finished() {
			keys = append(keys, k.Stop)
		}
		return append(keys, k.Quit)
	}
	if p := m.focusedPane(); p != nil {
		keys := []key.Binding{k.Transcript, k.Stop}
		if p.State() == pane.Running || p.State() == pane.WaitingForApproval {
			keys = append(keys, k.Message)
		}
		return append(keys, relabel(k.FocusNext, "next"), relabel(k.Back, "input"), k.Quit)
	}
	if _, popup := m.input.selected(); popup {
		return []key.Binding{k.Complete, k.Send, k.Dismiss, k.Quit}
	}
	keys := []key.Binding{k.Send}
	if m.busy {
		keys = append(keys, k.Interrupt)
	} else if m.input.empty() {
		keys = append(keys, k.HistoryPrev)
	}
	if m.agents.running() {
		keys = append(keys, k.FocusNext)
	}
	if !m.conv.pinned {
		keys = append(keys, k.Bottom)
	}
	return append(keys, k.Quit, k.Help, k.Expand, k.Newline)
}

// cardHelpKeys are the answers the active card takes.
func (m *Model) cardHelpKeys() []key.Binding {
	k := m.keys
	keys := []key.Binding{k.Allow, k.Deny, k.AllowAlways}
	if d := m.approvals[0].delegation(); d != nil {
		keys = []key.Binding{relabel(k.Allow, "approve"), k.Deny, relabel(k.AllowAlways, "always for "+termtext.Clean(d.AgentType)), k.Edit}
		if m.pendingDelegations() > 1 {
			keys = append(keys, k.AllowAll)
		}
	}
	return append(keys, k.DenyNow, k.CardDown, k.Quit)
}

// relabel is a key with the words it means in one state.
func relabel(b key.Binding, desc string) key.Binding {
	b.SetHelp(b.Help().Key, desc)
	return b
}

// fullHelpKeys is every key, grouped.
func (m *Model) fullHelpKeys() [][]key.Binding {
	k := m.keys
	return [][]key.Binding{
		{k.Send, k.Newline, k.HistoryPrev, k.HistoryNext, k.Complete},
		{k.PageUp, k.PageDown, k.Top, k.Bottom, k.Expand},
		{k.FocusNext, k.FocusPrev, k.Transcript, k.Stop, k.Message, k.Back},
		{k.Allow, k.AllowAlways, k.AllowAll, k.Edit, k.Deny, k.DenyNow},
		{k.Interrupt, k.Quit, k.Help},
	}
}
