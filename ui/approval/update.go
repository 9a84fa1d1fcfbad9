package approval

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/status"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// outcome is what a message did beyond the queue: what to tell the
// person, and what to stop before a denial is delivered.
type outcome struct {
	// said is what to tell the person; failed makes it an error that
	// stays, else it lasts until the next card.
	said   string
	failed bool
	// answered says the active card left the queue (with those it
	// covered).
	answered bool
	// stop interrupts the turn before the denial is delivered, so the
	// agent never takes the denial as a cue for its next request.
	stop bool
	// stopChild, on a sub-agent's card, stops that child alone the same
	// way: its siblings and the turn carry on. number names it.
	stopChild event.AgentID
	number    int
}

// Update handles the typing guard's tick and the keys of the active card
// (those Route gives it): it answers the card, says so on the status
// line, and stops what a denial stops before the denial is delivered.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	cmd, out := m.update(msg)
	if out.said != "" && out.failed {
		m.status.Set(status.Error, out.said)
	} else if out.said != "" {
		m.status.SetTransient(status.Info, out.said, status.Card, "")
	}
	switch {
	case out.stop:
		m.status.SetTransient(status.Warning, "interrupting…", status.Turn, "")
		stopper := m.stopper
		cmd = stopThenDeny(func() tea.Msg { stopper.Interrupt(); return nil }, cmd)
	case out.stopChild != "":
		if out.number > 0 {
			m.status.SetTransient(status.Warning, fmt.Sprintf("stopping #%d %s…", out.number, termtext.Clean(string(out.stopChild))), status.Child, out.stopChild)
		}
		stopper, id := m.stopper, out.stopChild
		cmd = stopThenDeny(func() tea.Msg {
			if err := stopper.StopAgent(id); err != nil {
				return status.Said{Level: status.Error, Text: fmt.Sprintf("stop %s: %v", id, err)}
			}
			return nil
		}, cmd)
	}
	return cmd
}

// stopThenDeny runs stop, then delivers the denial deny carries; what
// either reports (a stop that failed) reaches Update.
func stopThenDeny(stop, deny tea.Cmd) tea.Cmd {
	return func() tea.Msg {
		failed, denied := stop(), deny()
		if failed == nil {
			return denied
		}
		return tea.BatchMsg{func() tea.Msg { return failed }, func() tea.Msg { return denied }}
	}
}

// update is Update before what it says and stops.
func (m *Model) update(msg tea.Msg) (tea.Cmd, outcome) {
	switch msg := msg.(type) {
	case ArmMsg:
		return m.arm(msg), outcome{}
	case tea.KeyMsg:
		if len(m.cards) == 0 {
			return nil, outcome{}
		}
		switch m.mode {
		case reasoning:
			return m.reasonKey(msg)
		case editing:
			return m.editKey(msg)
		case budgeting:
			return m.budgetKey(msg)
		}
		return m.cardKey(msg)
	}
	return nil, outcome{}
}

// cardKey answers the armed active card.
func (m *Model) cardKey(msg tea.KeyMsg) (tea.Cmd, outcome) {
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
	case key.Matches(msg, k.Budget) && delegation:
		m.mode = budgeting
		m.budget.open(c.delegation())
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
		out.stopChild, out.number = c.meta.Agent, c.number
		return cmd, out
	case key.Matches(msg, k.DenyNow):
		// esc on the main agent's tool card is an interrupt that also
		// answers the card.
		cmd, out := m.answer(event.Answer{Decision: event.Deny, Reason: "the person stopped the turn"})
		out.stop = true
		return cmd, out
	case key.Matches(msg, k.CardUp):
		m.scrollBy(-1)
	case key.Matches(msg, k.CardDown):
		m.scrollBy(1)
	}
	return nil, outcome{}
}

// reasonKey edits the reason given with a denial: enter denies with it,
// esc denies without.
func (m *Model) reasonKey(msg tea.KeyMsg) (tea.Cmd, outcome) {
	switch {
	case key.Matches(msg, m.lineKeys.Confirm) && !msg.Paste:
		reason := strings.TrimSpace(termtext.Clean(m.reason.Value()))
		return m.answer(event.Answer{Decision: event.Deny, Reason: reason})
	case key.Matches(msg, m.lineKeys.Cancel):
		return m.answer(event.Answer{Decision: event.Deny})
	}
	return m.reason.Update(msg), outcome{}
}

// editKey edits the delegation's prompt: enter approves the edited text,
// esc goes back to the card unchanged.
func (m *Model) editKey(msg tea.KeyMsg) (tea.Cmd, outcome) {
	switch {
	case key.Matches(msg, m.lineKeys.Confirm) && !msg.Paste:
		text := strings.TrimSpace(m.editor.Value())
		if text == "" {
			return nil, outcome{said: "edit: the prompt is empty; esc goes back to the card", failed: true}
		}
		return m.answer(event.Answer{Decision: event.Allow, EditedPrompt: text})
	case key.Matches(msg, m.lineKeys.Cancel):
		m.close()
		return nil, outcome{}
	}
	return m.editor.Update(msg), outcome{}
}

// answer answers the active card, which leaves the queue. The answer is
// sent from a Cmd, never from Update. What an "always" also settles (the
// waiting cards its rules cover, delegations of the same type, the
// servers of a folder now trusted) is the engine's to decide: those
// cards leave as their ApprovalResolved events arrive.
func (m *Model) answer(a event.Answer) (tea.Cmd, outcome) {
	c := m.cards[0]
	m.cards = m.cards[1:]
	m.close()
	cmds := []tea.Cmd{answer(c.req, a)}
	said := answerWords(a.Decision) + ": " + c.subject()
	if s := c.server(); s != nil {
		said = fmt.Sprintf(serverWords(a.Decision), termtext.Visible(s.Name))
	}
	if c.isPlan() {
		said = planWords(a.Decision)
	}
	if len(a.Rules) > 0 {
		said = "always allowed; added " + termtext.Clean(strings.Join(a.Rules, ", ")) + " (/permissions lists and removes rules)"
		if c.child() {
			said = fmt.Sprintf("always allowed for %s only; added %s", termtext.Clean(string(c.meta.Agent)), termtext.Clean(strings.Join(a.Rules, ", ")))
		}
	}
	return tea.Batch(cmds...), outcome{said: said, answered: true}
}

// answerDelegations approves every waiting delegation; permission cards
// stay, since Y is about starting children, not about what they do.
func (m *Model) answerDelegations() (tea.Cmd, outcome) {
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
	return tea.Batch(cmds...), outcome{said: "approved " + event.Plural(len(cmds), "delegation"), answered: true}
}

// answer delivers a to req from a Cmd.
func answer(req *event.ApprovalRequest, a event.Answer) tea.Cmd {
	return func() tea.Msg {
		req.Answer(a)
		return nil
	}
}

// answerWords says an answer back to the person.
func answerWords(d event.Decision) string {
	switch d {
	case event.Allow:
		return "allowed once"
	case event.AllowAlways:
		return "always allowed"
	case event.Deny:
		return "denied"
	}
	return ""
}
