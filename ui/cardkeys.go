package ui

import (
	"strings"

	"github.com/seed-e4e525a6/baton/ui/status"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// overlayKey gives a key to the overlay that holds the keys; ok is false
// when none does.
func (m *Model) overlayKey(msg tea.KeyMsg) (tea.Cmd, bool) {
	switch m.overlay {
	case overlayApproval:
		if !m.cardHoldsKeys(msg) {
			return m.typeAhead(msg), true
		}
		return m.cardKey(msg), true
	case overlayReason:
		return m.reasonKey(msg), true
	case overlayEdit:
		return m.editKey(msg), true
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
	}
	return nil, false
}

// cardKey answers the armed active card (cardHoldsKeys keeps typing and
// pasted text away from it).
func (m *Model) cardKey(msg tea.KeyMsg) tea.Cmd {
	card, height, tail := m.approvals[0], cardRoom(m.conversationHeight()), len(m.cardTail())
	delegation := card.delegation() != nil
	switch {
	case key.Matches(msg, m.keys.Allow):
		return m.answerCard(event.Answer{Decision: event.Allow})
	case key.Matches(msg, m.keys.AllowAlways) && delegation:
		return m.answerCard(event.Answer{Decision: event.AllowAlways})
	case key.Matches(msg, m.keys.AllowAlways) && len(card.req.Always) > 0:
		return m.answerCard(event.Answer{Decision: event.AllowAlways, Rules: card.req.Always})
	case key.Matches(msg, m.keys.AllowFolder) && !delegation && len(card.req.AlwaysFolder) > 0:
		return m.answerCard(event.Answer{Decision: event.AllowAlways, Rules: card.req.AlwaysFolder})
	case key.Matches(msg, m.keys.AllowAll) && delegation:
		return m.answerDelegations()
	case key.Matches(msg, m.keys.Edit) && delegation:
		m.overlay = overlayEdit
		m.editor.Open(termtext.Clean(card.delegation().Prompt))
		m.layout()
	case key.Matches(msg, m.keys.Deny):
		// Any card may be denied with a reason typed after n.
		m.overlay = overlayReason
		m.reason.Open("")
	case key.Matches(msg, m.keys.DenyNow) && delegation:
		return m.answerCard(event.Answer{Decision: event.Deny})
	case key.Matches(msg, m.keys.DenyNow):
		// esc on a tool card is an interrupt that also answers the card.
		// The turn is cancelled before the denial is delivered, so the
		// agent never takes the denial as a cue for its next request.
		stop := m.interrupt()
		deny := m.answerCard(event.Answer{Decision: event.Deny, Reason: "the person stopped the turn"})
		return func() tea.Msg {
			stop()
			return deny()
		}
	case key.Matches(msg, m.keys.CardUp):
		card.scrollBy(&m.conv.rc, -1, m.width, height, tail)
	case key.Matches(msg, m.keys.CardDown):
		card.scrollBy(&m.conv.rc, 1, m.width, height, tail)
	case key.Matches(msg, m.keys.PageUp):
		card.scrollBy(&m.conv.rc, -height/2, m.width, height, tail)
	case key.Matches(msg, m.keys.PageDown):
		card.scrollBy(&m.conv.rc, height/2, m.width, height, tail)
	case key.Matches(msg, m.keys.Help):
		m.help.ShowAll = !m.help.ShowAll
	}
	return nil
}

// reasonKey edits the reason given with a denial: enter denies with it,
// esc denies without.
func (m *Model) reasonKey(msg tea.KeyMsg) tea.Cmd {
	switch {
	case key.Matches(msg, m.keys.Confirm) && !msg.Paste:
		reason := strings.TrimSpace(termtext.Clean(m.reason.Value()))
		m.reason.Blur()
		return m.answerCard(event.Answer{Decision: event.Deny, Reason: reason})
	case key.Matches(msg, m.keys.Cancel):
		m.reason.Blur()
		return m.answerCard(event.Answer{Decision: event.Deny})
	}
	return m.reason.Update(msg)
}

// editKey edits the delegation's prompt: enter approves the edited text,
// esc goes back to the card unchanged.
func (m *Model) editKey(msg tea.KeyMsg) tea.Cmd {
	switch {
	case key.Matches(msg, m.keys.Confirm) && !msg.Paste:
		text := strings.TrimSpace(m.editor.Value())
		if text == "" {
			m.status.Set(status.Error, "edit: the prompt is empty; esc goes back to the card")
			return nil
		}
		m.editor.Close()
		return m.answerCard(event.Answer{Decision: event.Allow, EditedPrompt: text})
	case key.Matches(msg, m.keys.Cancel):
		m.editor.Close()
		m.overlay = overlayApproval
		m.layout()
		return nil
	}
	return m.editor.Update(msg)
}
