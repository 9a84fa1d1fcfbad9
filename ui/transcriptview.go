package ui

import (
	"github.com/seed-e4e525a6/baton/ui/convo"
	"github.com/seed-e4e525a6/baton/ui/overlay"
	"github.com/seed-e4e525a6/baton/ui/pane"

	tea "github.com/charmbracelet/bubbletea"
)

// openTranscript shows a child's transcript full screen, drawn with the
// conversation's blocks; x in it stops the child.
func (m *Model) openTranscript(p *pane.Pane) {
	conv, k := m.conv, m.keys
	draw := func(e convo.Entry, width int, expanded bool) []string {
		rc := conv.rc
		rc.expanded = expanded
		return entryLines(&rc, e, width)
	}
	keys := overlay.TranscriptKeys{Back: k.Back, Up: k.Cards.CardUp, Down: k.Cards.CardDown, PageUp: k.PageUp, PageDown: k.PageDown,
		Top: k.Top, Bottom: k.Bottom, Expand: k.Expand, Stop: k.Stop, Help: k.Help}
	s, said := m.session, m.status
	m.layers.Push(overlay.NewTranscript(p, draw, keys, m.conv.rc.expanded, func() tea.Cmd { return stopChild(s, said, p) }))
}
