package ui

import (
	"fmt"
	"strings"

	"github.com/seed-e4e525a6/baton/ui/status"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// cardActive says whether the first card holds the keys, bare or with
// its reason line or prompt editor open.
func (m *Model) cardActive() bool {
	return m.overlay == overlayApproval || m.overlay == overlayReason || m.overlay == overlayEdit
}

// requestApproval queues a card; the first one is drawn at once and
// takes keys once it is armed (see armActive). A transcript or message
// box open at that moment waits behind the cards, so no question is ever
// hidden by another view.
func (m *Model) requestApproval(ev event.ApprovalRequested) tea.Cmd {
	if ev.Request == nil {
		return nil
	}
	m.cardSeq++
	card := &approvalCard{req: ev.Request, meta: ev.Meta, seq: m.cardSeq}
	if p, ok := m.agents.byID[ev.Agent]; ok {
		card.number = p.Number()
	}
	m.approvals = append(m.approvals, card)
	m.status.Settle(status.Card)
	if m.cardActive() {
		return m.armActive()
	}
	if m.overlay != overlayNone {
		m.behind = m.overlay
	}
	m.overlay = overlayApproval
	m.message.Blur()
	return m.armActive()
}

// dropApproval removes a card answered elsewhere (a remembered choice, a
// cancelled agent). The reason line or editor of a dropped first card
// closes with it.
func (m *Model) dropApproval(id string) tea.Cmd {
	for i, card := range m.approvals {
		if card.req.ID == id {
			m.approvals = append(m.approvals[:i:i], m.approvals[i+1:]...)
			if i == 0 && m.cardActive() {
				m.overlay = overlayApproval
				m.reason.Blur()
			}
			return m.refocus()
		}
	}
	return nil
}

// dropAllApprovals clears the cards a finished turn left; their agents
// have stopped, and denying them is harmless since the first answer wins.
func (m *Model) dropAllApprovals() tea.Cmd {
	cmds := make([]tea.Cmd, 0, len(m.approvals))
	for _, card := range m.approvals {
		cmds = append(cmds, answer(card.req, event.Answer{Decision: event.Deny, Reason: "the turn ended"}))
	}
	m.approvals = nil
	if m.cardActive() {
		m.overlay = overlayApproval
	}
	return tea.Batch(append(cmds, m.refocus())...)
}

// answerCard answers the active card and shows the next one, or gives
// the keys back. The answer is sent from a Cmd, never from Update. "Always"
// also answers the cards already waiting that it covers (the same agent's
// calls its rules allow, or delegations of the same type): the engine
// applies the choice only to questions not yet asked.
func (m *Model) answerCard(a event.Answer) tea.Cmd {
	card := m.approvals[0]
	m.approvals = m.approvals[1:]
	cmds := []tea.Cmd{answer(card.req, a)}
	if a.Decision == event.AllowAlways {
		kept := m.approvals[:0:0]
		for _, other := range m.approvals {
			if card.covers(other, a.Rules, m.opts.Workspace) {
				cmds = append(cmds, answer(other.req, event.Answer{Decision: event.Allow}))
				continue
			}
			kept = append(kept, other)
		}
		m.approvals = kept
	}
	m.overlay = overlayApproval
	said := answerWords[a.Decision] + ": " + card.subject()
	if len(a.Rules) > 0 {
		said = "always allowed; added " + termtext.Clean(strings.Join(a.Rules, ", ")) + " (/permissions lists and removes rules)"
		if card.meta.Agent != "" && card.meta.Agent != event.MainAgent {
			said = fmt.Sprintf("always allowed for %s only; added %s", termtext.Clean(string(card.meta.Agent)), termtext.Clean(strings.Join(a.Rules, ", ")))
		}
	}
	m.status.SetTransient(status.Info, said, status.Card, "")
	return tea.Batch(append(cmds, m.refocus())...)
}

// answerDelegations approves every waiting delegation; permission cards
// stay, since Y is about starting children, not about what they do.
func (m *Model) answerDelegations() tea.Cmd {
	var cmds []tea.Cmd
	kept := m.approvals[:0:0]
	for _, card := range m.approvals {
		if card.delegation() == nil {
			kept = append(kept, card)
			continue
		}
		cmds = append(cmds, answer(card.req, event.Answer{Decision: event.Allow}))
	}
	m.approvals = kept
	m.status.SetTransient(status.Info, fmt.Sprintf("approved %s", plural(len(cmds), "delegation")), status.Card, "")
	return tea.Batch(append(cmds, m.refocus())...)
}

// pendingDelegations counts the delegation cards waiting.
func (m *Model) pendingDelegations() int {
	n := 0
	for _, card := range m.approvals {
		if card.delegation() != nil {
			n++
		}
	}
	return n
}

// answer delivers a to req from a Cmd.
func answer(req *event.ApprovalRequest, a event.Answer) tea.Cmd {
	return func() tea.Msg {
		req.Answer(a)
		return nil
	}
}

// refocus settles who holds the keys once the card queue changed: the
// next card (armed afresh), else the view the cards interrupted, else
// the focused pane or the input.
func (m *Model) refocus() tea.Cmd {
	if len(m.approvals) > 0 {
		return m.armActive()
	}
	if m.cardActive() {
		m.overlay, m.behind = m.behind, overlayNone
		m.reason.Blur()
		m.editor.Close()
	}
	switch m.overlay {
	case overlayMessage:
		m.message.Focus()
	case overlayTranscript:
	default:
		m.setFocus(m.focus)
	}
	return m.notify.clear()
}

// answerWords says an answer back to the person.
var answerWords = map[event.Decision]string{
	event.Allow: "allowed once", event.AllowAlways: "always allowed", event.Deny: "denied",
}
