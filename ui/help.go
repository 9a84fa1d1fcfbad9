package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"

	"github.com/seed-e4e525a6/baton/ui/pane"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// footerView is the help: one line of the keys that can fire now, or all
// of them after "?".
func (m *Model) footerView() []string {
	if m.help.ShowAll {
		return m.fullHelpView()
	}
	return []string{m.help.ShortHelpView(m.shortHelpKeys())}
}

// shortHelpKeys are the keys that can fire in the current state, the
// most useful first: the footer cuts the rest when it runs out of room.
func (m *Model) shortHelpKeys() []key.Binding {
	k := m.keys
	switch m.overlay {
	case overlayApproval:
		if len(m.approvals) > 0 && m.approvals[0].armed {
			return m.cardHelpKeys()
		}
		// An unarmed card's keys cannot fire: typing goes to the input.
	case overlayReason:
		return []key.Binding{relabel(k.Confirm, "deny"), relabel(k.Cancel, "deny without a reason"), k.Quit}
	case overlayEdit:
		return []key.Binding{relabel(k.Confirm, "approve edited prompt"), k.Newline, relabel(k.Cancel, "back to the card"), k.Quit}
	case overlayMessage:
		return []key.Binding{relabel(k.Confirm, "send"), k.Cancel, k.Quit}
	case overlayModel:
		return m.pickerHelpKeys()
	case overlaySearch:
		return append(m.input.ShortHelp(), k.Quit)
	case overlayTranscript:
		keys := []key.Binding{k.Back, k.CardDown, k.PageDown, k.Top, k.Bottom, k.Expand}
		if p, ok := m.agents.byID[m.viewer.id]; ok && !p.State().Finished() {
			keys = append(keys, k.Stop)
		}
		return append(keys, k.Quit)
	}
	if p := m.focusedPane(); p != nil {
		if p.State().Finished() { // only a change pending review keeps a folded child in focus
			return []key.Binding{relabel(k.Transcript, "review"), relabel(k.FocusNext, "next"), relabel(k.Back, "input"), k.Quit}
		}
		keys := []key.Binding{k.Transcript, k.Stop}
		if p.State() == pane.Running || p.State() == pane.WaitingForApproval {
			keys = append(keys, k.Message)
		}
		if canBackground(p) {
			keys = append(keys, k.Background)
		}
		return append(keys, relabel(k.FocusNext, "next"), relabel(k.Back, "input"), k.Quit)
	}
	if _, popup := m.input.Selected(); popup {
		return []key.Binding{k.Complete, k.Send, k.Dismiss, k.Quit}
	}
	keys := []key.Binding{k.Send}
	if m.busy {
		keys = append(keys, k.Interrupt)
	} else if m.input.Empty() {
		keys = append(keys, k.HistoryPrev)
	}
	if m.agents.running() {
		keys = append(keys, k.FocusNext)
	} else if len(m.agents.reviewable()) > 0 {
		keys = append(keys, relabel(k.FocusNext, "review changes"))
	}
	if !m.conv.pinned {
		keys = append(keys, k.Bottom)
	}
	return append(keys, k.Quit, k.Help, k.Expand, k.Newline)
}

// cardHelpKeys are the answers the active card takes.
func (m *Model) cardHelpKeys() []key.Binding {
	k := m.keys
	card := m.approvals[0]
	if d := card.delegation(); d != nil {
		keys := []key.Binding{relabel(k.Allow, "approve"), k.Deny, relabel(k.AllowAlways, "always for "+termtext.Clean(d.AgentType)), k.Edit}
		if m.pendingDelegations() > 1 {
			keys = append(keys, k.AllowAll)
		}
		return append(keys, k.DenyNow, k.CardDown, k.Quit)
	}
	keys := []key.Binding{k.Allow, relabel(k.Deny, "deny (reason)"), relabel(k.DenyNow, "deny & stop")}
	if len(card.req.Always) > 0 {
		keys = append(keys, k.AllowAlways)
	}
	if len(card.req.AlwaysFolder) > 0 {
		keys = append(keys, k.AllowFolder)
	}
	return append(keys, k.CardDown, k.Quit)
}

// relabel is a key with the words it means in one state.
func relabel(b key.Binding, desc string) key.Binding {
	b.SetHelp(b.Help().Key, desc)
	return b
}

// keyGroup is the keys that apply in one place, for /help.
type keyGroup struct {
	where string
	keys  []key.Binding
}

// allKeys is every key, grouped by where it applies, as /help lists them.
func (m *Model) allKeys() []keyGroup {
	k := m.keys
	return []keyGroup{
		{"in the input", []key.Binding{k.Send, k.Newline, k.HistoryPrev, k.HistoryNext, k.Search, k.Complete}},
		{"in the conversation", []key.Binding{k.PageUp, k.PageDown, k.Top, k.Bottom, k.Expand}},
		{"on a sub-agent's pane (tab to reach it)", []key.Binding{k.FocusNext, k.FocusPrev, k.Transcript, k.Stop, k.Message, k.Background, k.Back}},
		{"on a card", []key.Binding{k.Allow, k.AllowAlways, k.AllowFolder, k.AllowAll, k.Edit, k.Deny, relabel(k.DenyNow, "deny (tool card: and stop the turn)")}},
		{"anywhere", []key.Binding{k.Interrupt, k.Quit, k.Help}},
	}
}

// fullHelpKeys are the keys that can fire now, grouped: the short help's
// state, spelled out. Keys of panes, cards or a running turn show only
// while there is one.
func (m *Model) fullHelpKeys() [][]key.Binding {
	k := m.keys
	closeHelp := relabel(k.Help, "close help")
	switch m.overlay {
	case overlayReason, overlayEdit, overlayMessage, overlaySearch, overlayModel:
		return [][]key.Binding{m.shortHelpKeys()}
	case overlayApproval, overlayTranscript:
		return [][]key.Binding{append(m.shortHelpKeys(), closeHelp)}
	}
	groups := [][]key.Binding{
		{k.Send, k.Newline, k.HistoryPrev, k.HistoryNext, k.Search},
		{k.PageUp, k.PageDown, k.Top, k.Bottom, k.Expand},
	}
	if _, popup := m.input.Selected(); popup {
		groups[0] = append(groups[0], k.Complete)
	}
	var panes []key.Binding
	if len(m.agents.live())+len(m.agents.reviewable()) > 0 {
		panes = append(panes, k.FocusNext, k.FocusPrev)
	}
	if p := m.focusedPane(); p != nil && p.State().Finished() {
		panes = append(panes, relabel(k.Transcript, "review"), relabel(k.Back, "input"))
	} else if p != nil {
		panes = append(panes, k.Transcript, k.Stop)
		if p.State() == pane.Running || p.State() == pane.WaitingForApproval {
			panes = append(panes, k.Message)
		}
		if canBackground(p) {
			panes = append(panes, k.Background)
		}
		panes = append(panes, relabel(k.Back, "input"))
	}
	if len(panes) > 0 {
		groups = append(groups, panes)
	}
	if m.focusedPane() != nil {
		groups = groups[1:] // the pane holds enter, esc and the arrows
	}
	last := []key.Binding{}
	if m.busy && m.focusedPane() == nil {
		last = append(last, k.Interrupt)
	}
	return append(groups, append(last, k.Quit, closeHelp))
}

// fullHelpView lays the groups out in columns, starting a new row of
// columns where the next would not fit, so no key is cut off.
func (m *Model) fullHelpView() []string {
	var rows [][]key.Binding
	var lines []string
	flush := func() {
		if len(rows) > 0 {
			lines = append(lines, strings.Split(m.help.FullHelpView(rows), "\n")...)
			rows = nil
		}
	}
	wide := *m.help
	wide.Width = 0 // measure without the cut
	for _, group := range m.fullHelpKeys() {
		if len(rows) > 0 && lipgloss.Width(wide.FullHelpView(append(rows, group))) > m.width {
			flush()
		}
		rows = append(rows, group)
	}
	flush()
	return lines
}
