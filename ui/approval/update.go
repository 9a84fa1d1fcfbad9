package approval

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// Outcome tells the root what a message did to the queue, for what only
// the root can do: say it on the status line, stop the turn, give the
// keys back.
type Outcome struct {
	// Said is what to tell the person; Failed makes it an error that
	// stays, else it lasts until the next card.
	Said   string
	Failed bool
	// Answered says the active card left the queue (with those it
	// covered): the next one arms, or the keys go back.
	Answered bool
	// Stop asks the root to interrupt the turn before the returned Cmd
	// delivers the denial, so the agent never takes the denial as a cue
	// for its next request.
	Stop bool
	// StopChild, on a sub-agent's card, asks the root to stop that child
	// alone the same way: its siblings and the turn carry on.
	StopChild event.AgentID
	// Armed says the active card now takes keys: the input lets go.
	Armed bool
}

// Update handles the typing guard's tick and the keys of the active
// card (the root gives it only keys HoldsKeys accepts).
func (m *Model) Update(msg tea.Msg) (tea.Cmd, Outcome) {
	switch msg := msg.(type) {
	case ArmMsg:
		cmd := m.arm(msg)
		return cmd, Outcome{Armed: m.Armed()}
	case tea.KeyMsg:
		if len(m.cards) == 0 {
			return nil, Outcome{}
		}
		switch m.mode {
		case reasoning:
			return m.reasonKey(msg)
		case editing:
			return m.editKey(msg)
		}
		return m.cardKey(msg)
	}
	return nil, Outcome{}
}

// cardKey answers the armed active card.
func (m *Model) cardKey(msg tea.KeyMsg) (tea.Cmd, Outcome) {
	c, k := m.cards[0], m.keys
	if s := c.server(); s != nil {
		return m.serverKey(s, msg)
	}
	if c.isPlan() {
		return m.planKey(msg)
	}
	delegation := c.delegation() != nil
	switch {
	case key.Matches(msg, k.Allow):
		return m.answer(event.Answer{Decision: event.Allow})
	case key.Matches(msg, k.AllowAlways) && delegation:
		return m.answer(event.Answer{Decision: event.AllowAlways})
	case key.Matches(msg, k.AllowAlways) && len(c.req.Always) > 0:
		return m.answer(event.Answer{Decision: event.AllowAlways, Rules: c.req.Always})
	case key.Matches(msg, k.AllowFolder) && !delegation && len(c.req.AlwaysFolder) > 0:
		return m.answer(event.Answer{Decision: event.AllowAlways, Rules: c.req.AlwaysFolder})
	case key.Matches(msg, k.AllowAll) && delegation:
		return m.answerDelegations()
	case key.Matches(msg, k.Edit) && delegation:
		m.mode = editing
		m.editor.Open(termtext.Clean(c.delegation().Prompt))
		m.SetSize(m.width, m.height)
	case key.Matches(msg, k.Deny):
		// Any card may be denied with a reason typed after n.
		m.mode = reasoning
		m.reason.SetLabel("reason")
		m.reason.Open("")
	case key.Matches(msg, k.DenyNow) && delegation:
		return m.answer(event.Answer{Decision: event.Deny})
	case key.Matches(msg, k.DenyNow) && c.child():
		// esc on a sub-agent's card stops that child, and only it.
		cmd, out := m.answer(event.Answer{Decision: event.Deny, Reason: "the person stopped this sub-agent"})
		out.StopChild = c.meta.Agent
		return cmd, out
	case key.Matches(msg, k.DenyNow):
		// esc on the main agent's tool card is an interrupt that also
		// answers the card.
		cmd, out := m.answer(event.Answer{Decision: event.Deny, Reason: "the person stopped the turn"})
		out.Stop = true
		return cmd, out
	case key.Matches(msg, k.CardUp):
		m.scrollBy(-1)
	case key.Matches(msg, k.CardDown):
		m.scrollBy(1)
	}
	return nil, Outcome{}
}

// reasonKey edits the reason given with a denial: enter denies with it,
// esc denies without.
func (m *Model) reasonKey(msg tea.KeyMsg) (tea.Cmd, Outcome) {
	switch {
	case key.Matches(msg, m.lineKeys.Confirm) && !msg.Paste:
		reason := strings.TrimSpace(termtext.Clean(m.reason.Value()))
		return m.answer(event.Answer{Decision: event.Deny, Reason: reason})
	case key.Matches(msg, m.lineKeys.Cancel):
		return m.answer(event.Answer{Decision: event.Deny})
	}
	return m.reason.Update(msg), Outcome{}
}

// editKey edits the delegation's prompt: enter approves the edited text,
// esc goes back to the card unchanged.
func (m *Model) editKey(msg tea.KeyMsg) (tea.Cmd, Outcome) {
	switch {
	case key.Matches(msg, m.lineKeys.Confirm) && !msg.Paste:
		text := strings.TrimSpace(m.editor.Value())
		if text == "" {
			return nil, Outcome{Said: "edit: the prompt is empty; esc goes back to the card", Failed: true}
		}
		return m.answer(event.Answer{Decision: event.Allow, EditedPrompt: text})
	case key.Matches(msg, m.lineKeys.Cancel):
		m.close()
		return nil, Outcome{}
	}
	return m.editor.Update(msg), Outcome{}
}

// answer answers the active card, which leaves the queue. The answer is
// sent from a Cmd, never from Update. "Always" also answers the cards
// already waiting that it covers (the same agent's calls its rules
// allow, or delegations of the same type): the engine applies the
// choice only to questions not yet asked.
func (m *Model) answer(a event.Answer) (tea.Cmd, Outcome) {
	c := m.cards[0]
	m.cards = m.cards[1:]
	m.close()
	cmds := []tea.Cmd{answer(c.req, a)}
	if a.Decision == event.AllowAlways {
		kept := m.cards[:0:0]
		for _, other := range m.cards {
			if c.covers(other, a.Rules, m.workspace) {
				cmds = append(cmds, answer(other.req, event.Answer{Decision: event.Allow}))
				continue
			}
			kept = append(kept, other)
		}
		m.cards = kept
	}
	said := answerWords[a.Decision] + ": " + c.subject()
	if s := c.server(); s != nil {
		said = fmt.Sprintf(serverWords[a.Decision], termtext.Visible(s.Name))
	}
	if c.isPlan() {
		said = planWords[a.Decision]
	}
	if len(a.Rules) > 0 {
		said = "always allowed; added " + termtext.Clean(strings.Join(a.Rules, ", ")) + " (/permissions lists and removes rules)"
		if c.child() {
			said = fmt.Sprintf("always allowed for %s only; added %s", termtext.Clean(string(c.meta.Agent)), termtext.Clean(strings.Join(a.Rules, ", ")))
		}
	}
	return tea.Batch(cmds...), Outcome{Said: said, Answered: true}
}

// answerDelegations approves every waiting delegation; permission cards
// stay, since Y is about starting children, not about what they do.
func (m *Model) answerDelegations() (tea.Cmd, Outcome) {
	var cmds []tea.Cmd
	kept := m.cards[:0:0]
	for _, c := range m.cards {
		if c.delegation() == nil {
			kept = append(kept, c)
			continue
		}
		cmds = append(cmds, answer(c.req, event.Answer{Decision: event.Allow}))
	}
	m.cards = kept
	m.close()
	return tea.Batch(cmds...), Outcome{Said: "approved " + event.Plural(len(cmds), "delegation"), Answered: true}
}

// answer delivers a to req from a Cmd.
func answer(req *event.ApprovalRequest, a event.Answer) tea.Cmd {
	return func() tea.Msg {
		req.Answer(a)
		return nil
	}
}

// answerWords says an answer back to the person.
var answerWords = map[event.Decision]string{
	event.Allow: "allowed once", event.AllowAlways: "always allowed", event.Deny: "denied",
}
