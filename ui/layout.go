package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
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
}

// conversationHeight is what is left for the conversation (and the
// overlays drawn over it) once the fixed parts are placed.
func (m *Model) conversationHeight() int {
	used := headerRows + statusRows + len(m.input.view(m.width)) + len(m.footerView())
	return max(m.height-used, 0)
}

// View draws the screen: header, conversation with any overlay over its
// bottom rows, status, input and help. It is exactly the terminal's
// height, and no line is wider than the terminal: the conversation's lines
// are cut when they are drawn and cached, the few others here.
func (m Model) View() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	input, footer := m.input.view(m.width), m.footerView()
	for _, part := range [][]string{input, footer} {
		for i, line := range part {
			part[i] = fit(line, m.width)
		}
	}
	bodyHeight := m.height - headerRows - statusRows - len(input) - len(footer)
	lines := make([]string, 0, m.height)
	lines = append(lines, m.headerView()...)
	lines = append(lines, m.bodyView(max(bodyHeight, 0))...)
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
	case m.overlay == overlayApproval:
		over = m.approvals[0].view(&m.conv.rc, m.keys, m.width, height)
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
		lines = append(lines, "", st.Interrupted.Render("demo (offline): a scripted model answers; set OPENAI_API_KEY to use a real one"))
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
	if m.overlay == overlayApproval {
		return []key.Binding{k.Allow, k.AllowAlways, k.Deny, k.CardDown, k.Quit}
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
	if !m.conv.pinned {
		keys = append(keys, k.Bottom)
	}
	return append(keys, k.Quit, k.Help, k.Expand, k.Newline)
}

// fullHelpKeys is every key, grouped.
func (m *Model) fullHelpKeys() [][]key.Binding {
	k := m.keys
	return [][]key.Binding{
		{k.Send, k.Newline, k.HistoryPrev, k.HistoryNext, k.Complete},
		{k.PageUp, k.PageDown, k.Top, k.Bottom, k.Expand},
		{k.Allow, k.AllowAlways, k.Deny},
		{k.Interrupt, k.Quit, k.Help},
	}
}
