package ui

import (
	"strconv"

	"github.com/charmbracelet/bubbles/key"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/input"
	"github.com/seed-e4e525a6/baton/ui/overlay"
)

// footerView is the help: one line of the keys that can fire now, or all
// of them after "?".
func (m *Model) footerView() []string {
	if m.help.ShowAll {
		return m.fullHelpView()
	}
	keys := m.shortHelpKeys()
	f := m.footer
	b := strconv.AppendInt(f.scratch[:0], int64(m.width), 10)
	b = append(append(b, ' '), m.styles.Palette.Name...)
	for _, k := range keys {
		if k.Enabled() {
			h := k.Help()
			b = append(append(append(append(b, 0), h.Key...), 1), h.Desc...)
		}
	}
	f.scratch = b
	if f.line == "" || f.key != string(b) { // the conversion is not kept, so costs no copy
		f.key, f.line = string(b), m.help.ShortHelpView(keys)
	}
	return []string{f.line}
}

// footerCache is the short help as last drawn and the keys, width and
// theme it was drawn for, shared by the Model's copies: the keys seldom
// change while an answer streams, and every frame shows them. scratch is
// where each frame writes the keys it would draw, reused.
type footerCache struct {
	key, line string
	scratch   []byte
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
// A layer on top says its own (an unarmed card says none: typing goes
// to the input).
func (m *Model) shortHelpKeys() []key.Binding {
	k := m.keys
	if top := m.layers.Top(); top != nil {
		if keys := top.ShortHelp(); keys != nil {
			return append(keys, k.Quit)
		}
	}
	if m.input.Searching() {
		return append(m.input.ShortHelp(), k.Quit)
	}
	if keys := m.agents.ShortHelp(); keys != nil {
		return append(keys, k.Quit)
	}
	if _, popup := m.input.Selected(); popup {
		return []key.Binding{k.Complete, k.Send, k.Dismiss, k.Quit}
	}
	keys := make([]key.Binding, 0, 12) // the most this state shows
	keys = append(keys, k.Send)
	if m.mode.Mode() != event.AgentModeNormal { // the mode is said early: it decides what runs unasked
		keys = append(keys, m.mode.Binding(k.Mode))
	}
	if m.busy {
		keys = append(keys, k.Interrupt)
	} else if m.input.Empty() {
		keys = append(keys, k.HistoryPrev)
	}
	if m.agents.Running() {
		keys = append(keys, k.Panes.FocusNext)
	} else if len(m.agents.Reviewable()) > 0 {
		keys = append(keys, relabel(k.Panes.FocusNext, "review changes"))
	}
	if !m.conv.Pinned() {
		keys = append(keys, k.Scroll.Bottom)
	}
	keys = append(keys, k.Quit, k.Help, k.Scroll.Expand, k.Newline)
	if m.mode.Mode() == event.AgentModeNormal {
		keys = append(keys, m.mode.Binding(k.Mode))
	}
	return keys
}

// relabel is a key with the words it means in one state.
func relabel(b key.Binding, desc string) key.Binding {
	b.SetHelp(b.Help().Key, desc)
	return b
}

// allKeys is every key, grouped by where it applies, as /help lists
// them.
func allKeys(k KeyMap, in *input.Model) []overlay.KeyGroup {
	c, p := k.Cards, k.Panes
	return []overlay.KeyGroup{
		{Where: "input", Keys: append(in.FullHelp(), relabel(k.Mode, "mode: normal · auto-accept edits · plan"))},
		{Where: "conversation", Keys: []key.Binding{k.Scroll.PageUp, k.Scroll.PageDown, k.Scroll.Top, k.Scroll.Bottom, k.Scroll.Expand}},
		{Where: "card", Keys: []key.Binding{c.Allow, c.AllowAlways, c.AllowFolder, c.AllowAll, c.Edit, c.Deny,
			relabel(c.DenyNow, "deny (tool card: and stop the turn)"), c.CardDown}},
		{Where: "pane", Keys: []key.Binding{p.FocusNext, p.FocusPrev, p.Transcript, p.Stop, p.Message, p.Background, relabel(p.Back, "back to the input")}},
		{Where: "transcript", Keys: []key.Binding{relabel(k.Cards.CardDown, "scroll"), k.Scroll.PageDown, k.Scroll.Top, k.Scroll.Bottom, relabel(k.Scroll.Expand, "expand tool output"), p.Stop, relabel(p.Back, "close")}},
		{Where: "anywhere", Keys: []key.Binding{k.Interrupt, k.Quit, k.Suspend, k.Help}},
	}
}

// fullHelpKeys are the keys that can fire now, grouped by where they
// apply: the short help's state, spelled out. Keys of panes, cards or a
// running turn show only while there is one.
func (m *Model) fullHelpKeys() []overlay.KeyGroup {
	k := m.keys
	closeHelp := relabel(k.Help, "close help")
	if top := m.layers.Top(); top != nil {
		if groups := top.FullHelp(); groups != nil {
			return append(groups, overlay.KeyGroup{Where: "anywhere", Keys: []key.Binding{k.Quit, closeHelp}})
		}
		return []overlay.KeyGroup{{Where: "now", Keys: m.shortHelpKeys()}}
	}
	if m.input.Searching() {
		return []overlay.KeyGroup{{Where: "now", Keys: m.shortHelpKeys()}}
	}
	var groups []overlay.KeyGroup
	if keys := m.agents.ShortHelp(); keys != nil {
		groups = append(groups, overlay.KeyGroup{Where: "pane", Keys: append(keys, k.Panes.FocusPrev)})
	} else {
		inputKeys := []key.Binding{k.Send, k.Newline, k.HistoryPrev, k.HistoryNext, k.Search, relabel(k.Mode, "mode: normal · auto-accept edits · plan")}
		if m.input.PopupOpen() {
			inputKeys = append(inputKeys, k.Complete)
		}
		groups = append(groups, overlay.KeyGroup{Where: "input", Keys: inputKeys},
			overlay.KeyGroup{Where: "conversation", Keys: []key.Binding{k.Scroll.PageUp, k.Scroll.PageDown, k.Scroll.Top, k.Scroll.Bottom, k.Scroll.Expand}})
		if len(m.agents.Live())+len(m.agents.Reviewable()) > 0 {
			groups = append(groups, overlay.KeyGroup{Where: "panes", Keys: []key.Binding{relabel(k.Panes.FocusNext, "to the panes")}})
		}
	}
	var anywhere []key.Binding
	if m.busy && m.agents.Focused() == nil {
		anywhere = append(anywhere, k.Interrupt)
	}
	return append(groups, overlay.KeyGroup{Where: "anywhere", Keys: append(anywhere, k.Quit, closeHelp)})
}

// fullHelpView lays the groups that can fire now out in columns.
func (m *Model) fullHelpView() []string {
	return overlay.FullHelp(m.fullHelpKeys(), m.styles, m.width)
}
