package ui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// overlayKey gives a key to the overlay that holds the keys; ok is false
// when none does.
func (m *Model) overlayKey(msg tea.KeyMsg) (tea.Cmd, bool) {
	switch m.overlay {
	case overlayApproval:
		switch {
		case !m.approvals.HoldsKeys(msg):
			return m.typeAhead(msg), true
		case key.Matches(msg, m.keys.Help) && !m.approvals.Typing():
			m.help.ShowAll = !m.help.ShowAll
			return nil, true
		}
		return m.cardUpdate(msg), true
	case overlayMessage:
		return m.messageKey(msg), true
	case overlayTranscript:
		return m.transcriptKey(msg), true
	case overlayReview:
		return m.review.Update(msg), true
	case overlaySearch:
		return m.searchKey(msg), true
	case overlayModel:
		return m.pickerKey(msg), true
	case overlayQuit:
		return m.quitAskKey(msg), true
	}
	return nil, false
}
