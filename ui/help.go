package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"

	"github.com/seed-e4e525a6/baton/ui/overlay"
	"github.com/seed-e4e525a6/baton/ui/pane"
)

// footerView is the help: one line of the keys that can fire now, or all
// of them after "?".
func (m *Model) footerView() []string {
	if m.help.ShowAll {
		return m.fullHelpView()
	}
	keys := m.shortHelpKeys()
	var b strings.Builder
	fmt.Fprintf(&b, "%d %s", m.width, m.styles.Palette.Name)
	for _, k := range keys {
		if k.Enabled() {
			b.WriteString("\x00" + k.Help().Key + "\x01" + k.Help().Desc)
		}
	}
	if f := m.footer; f.line == "" || f.key != b.String() {
		f.key, f.line = b.String(), m.help.ShortHelpView(keys)
	}
	return []string{m.footer.line}
}

// footerCache is the short help as last drawn and the keys, width and
// theme it was drawn for, shared by the Model's copies: the keys seldom
// change while an answer streams, and every frame shows them.
type footerCache struct {
	key, line string
}

// footerHeight is how many lines footerView takes, computed without
// drawing it: the short help is one line.
func (m *Model) footerHeight() int {
	if m.help.ShowAll {
		return overlay.FullHelpHeight(m.fullHelpKeys(), m.width)
	}
	return 1
}

// shortHelpKeys are the keys that can fire in the current state, the
// most useful first: the footer cuts the rest when it runs out of room.
func (m *Model) shortHelpKeys() []key.Binding {
	k := m.keys
	switch m.overlay {
	case overlayApproval:
		if keys := m.approvals.ShortHelp(); m.approvals.Typing() {
			return append(keys, k.Quit)
		} else if keys != nil {
			return append(keys, relabel(k.Help, "all keys"), k.Quit)
		}
		// An unarmed card's keys cannot fire: typing goes to the input.
	case overlayMessage:
		return []key.Binding{relabel(k.Confirm, "send"), k.Cancel, k.Quit}
	case overlayModel:
		return m.pickerHelpKeys()
	case overlayQuit:
		return m.quitAsk.ShortHelp()
	case overlaySearch:
		return append(m.input.ShortHelp(), k.Quit)
	case overlayTranscript:
		return append(m.transcriptHelpKeys(), k.Quit)
	}
	if p := m.focusedPane(); p != nil {
		return append(m.paneHelpKeys(p), k.Quit)
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

// transcriptHelpKeys are the keys of the open transcript.
func (m *Model) transcriptHelpKeys() []key.Binding {
	p, ok := m.agents.byID[m.viewer.ID()]
	return m.viewer.ShortHelp(ok && !p.State().Finished())
}

// paneHelpKeys are the keys of the focused pane.
func (m *Model) paneHelpKeys(p *pane.Pane) []key.Binding {
	k := m.keys
	if p.State().Finished() { // only a change pending review keeps a folded child in focus
		return []key.Binding{relabel(k.Transcript, "review"), relabel(k.FocusNext, "next"), relabel(k.Back, "input")}
	}
	keys := []key.Binding{k.Transcript, k.Stop}
	if p.State() == pane.Running || p.State() == pane.WaitingForApproval {
		keys = append(keys, k.Message)
	}
	if canBackground(p) {
		keys = append(keys, k.Background)
	}
	return append(keys, relabel(k.FocusNext, "next"), relabel(k.Back, "input"))
}

// relabel is a key with the words it means in one state.
func relabel(b key.Binding, desc string) key.Binding {
	b.SetHelp(b.Help().Key, desc)
	return b
}

// allKeys is every key, grouped by where it applies, as /help lists
// them.
func (m *Model) allKeys() []overlay.KeyGroup {
	k, c := m.keys, m.keys.Cards
	return []overlay.KeyGroup{
		{Where: "input", Keys: m.input.FullHelp()},
		{Where: "conversation", Keys: []key.Binding{k.PageUp, k.PageDown, k.Top, k.Bottom, k.Expand}},
		{Where: "card", Keys: []key.Binding{c.Allow, c.AllowAlways, c.AllowFolder, c.AllowAll, c.Edit, c.Deny,
			relabel(c.DenyNow, "deny (tool card: and stop the turn)"), c.CardDown}},
		{Where: "pane", Keys: []key.Binding{k.FocusNext, k.FocusPrev, k.Transcript, k.Stop, k.Message, k.Background, relabel(k.Back, "back to the input")}},
		{Where: "transcript", Keys: []key.Binding{relabel(k.Cards.CardDown, "scroll"), k.PageDown, k.Top, k.Bottom, relabel(k.Expand, "expand tool output"), k.Stop, relabel(k.Back, "close")}},
		{Where: "anywhere", Keys: []key.Binding{k.Interrupt, k.Quit, k.Help}},
	}
}

// fullHelpKeys are the keys that can fire now, grouped by where they
// apply: the short help's state, spelled out. Keys of panes, cards or a
// running turn show only while there is one.
func (m *Model) fullHelpKeys() []overlay.KeyGroup {
	k := m.keys
	closeHelp := relabel(k.Help, "close help")
	switch m.overlay {
	case overlayMessage, overlaySearch, overlayModel, overlayQuit:
		return []overlay.KeyGroup{{Where: "now", Keys: m.shortHelpKeys()}}
	case overlayApproval:
		if m.approvals.Typing() {
			return []overlay.KeyGroup{{Where: "now", Keys: m.shortHelpKeys()}}
		}
		return []overlay.KeyGroup{{Where: "card", Keys: m.approvals.FullHelp()}, {Where: "anywhere", Keys: []key.Binding{k.Quit, closeHelp}}}
	case overlayTranscript:
		return []overlay.KeyGroup{{Where: "transcript", Keys: m.transcriptHelpKeys()}, {Where: "anywhere", Keys: []key.Binding{k.Quit, closeHelp}}}
	}
	var groups []overlay.KeyGroup
	if p := m.focusedPane(); p != nil {
		groups = append(groups, overlay.KeyGroup{Where: "pane", Keys: append(m.paneHelpKeys(p), k.FocusPrev)})
	} else {
		inputKeys := []key.Binding{k.Send, k.Newline, k.HistoryPrev, k.HistoryNext, k.Search}
		if m.input.PopupOpen() {
			inputKeys = append(inputKeys, k.Complete)
		}
		groups = append(groups, overlay.KeyGroup{Where: "input", Keys: inputKeys},
			overlay.KeyGroup{Where: "conversation", Keys: []key.Binding{k.PageUp, k.PageDown, k.Top, k.Bottom, k.Expand}})
		if len(m.agents.live())+len(m.agents.reviewable()) > 0 {
			groups = append(groups, overlay.KeyGroup{Where: "panes", Keys: []key.Binding{relabel(k.FocusNext, "to the panes"), k.FocusPrev}})
		}
	}
	var anywhere []key.Binding
	if m.busy && m.focusedPane() == nil {
		anywhere = append(anywhere, k.Interrupt)
	}
	return append(groups, overlay.KeyGroup{Where: "anywhere", Keys: append(anywhere, k.Quit, closeHelp)})
}

// fullHelpView lays the groups that can fire now out in columns.
func (m *Model) fullHelpView() []string {
	return overlay.FullHelp(m.fullHelpKeys(), m.styles, m.width)
}
