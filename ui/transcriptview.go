package ui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/ui/convo"
	"github.com/seed-e4e525a6/baton/ui/overlay"
	"github.com/seed-e4e525a6/baton/ui/pane"
)

// openTranscript shows a child's transcript full screen, drawn with the
// conversation's blocks.
func (m *Model) openTranscript(p *pane.Pane) {
	conv, k := m.conv, m.keys
	draw := func(e convo.Entry, width int, expanded bool) []string {
		rc := conv.rc
		rc.expanded = expanded
		return entryLines(&rc, e, width)
	}
	keys := overlay.TranscriptKeys{Back: k.Back, Up: k.Cards.CardUp, Down: k.Cards.CardDown, PageUp: k.PageUp, PageDown: k.PageDown,
		Top: k.Top, Bottom: k.Bottom, Expand: k.Expand, Stop: k.Stop}
	m.viewer = overlay.NewTranscript(p.ID(), p.Conversation(), p.HeaderLine, draw, keys, m.conv.rc.expanded)
	m.overlay = overlayTranscript
	m.input.Blur()
	m.fitBody()
}

// transcriptKey gives a key to the open transcript and does what it asks:
// close it, or stop its child.
func (m *Model) transcriptKey(msg tea.KeyMsg) tea.Cmd {
	if key.Matches(msg, m.keys.Help) {
		m.help.ShowAll = !m.help.ShowAll
		return nil
	}
	switch m.viewer.Update(msg) {
	case overlay.Close:
		m.overlay, m.viewer = overlayNone, nil
		m.setFocus(m.focus)
	case overlay.Stop:
		if p, ok := m.agents.byID[m.viewer.ID()]; ok {
			return m.stopAgent(p)
		}
	}
	return nil
}

// transcriptHeight is the room for the transcript between the header
// with the pane's own line and the status line.
func (m *Model) transcriptHeight() int {
	return max(m.height-headerRows-1-statusRows-m.footerHeight(), 0)
}
