package approval

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// In plan mode the main agent offers its plan on a card of its own (as
// Claude Code's "Would you like to proceed?"): y accepts it, with edits
// asking first as in normal mode; a accepts it and lets edits run
// unasked; n keeps planning, with what to change typed as the reason;
// esc keeps planning and stops the turn. Either way the plan was the
// model's to write, so it is shown whole, scrolled, never cut.

// isPlan says whether the card offers a plan.
func (c *card) isPlan() bool { return c.req.Kind == event.ApprovePlan }

// planTitle asks the question.
const planTitle = "Carry out this plan?"

// planAnswers are the keys the card takes, with what each means here.
func (m *Model) planAnswers() []key.Binding {
	k := m.keys
	return []key.Binding{
		relabel(k.Allow, "yes, edits ask first"), relabel(k.AllowAlways, "yes, auto-accept edits"),
		relabel(k.Deny, "keep planning (say what to change)"), relabel(k.DenyNow, "keep planning & stop turn"),
	}
}

// planKey answers the card.
func (m *Model) planKey(msg tea.KeyMsg) (tea.Cmd, outcome) {
	k := m.keys
	switch {
	case key.Matches(msg, k.Allow):
		return m.answer(event.Answer{Decision: event.Allow})
	case key.Matches(msg, k.AllowAlways):
		return m.answer(event.Answer{Decision: event.AllowAlways})
	case key.Matches(msg, k.Deny):
		m.mode = reasoning
		m.reason.SetLabel("change")
		m.reason.Open("")
	case key.Matches(msg, k.DenyNow):
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

// planWords says an answer back to the person.
func planWords(d event.Decision) string {
	switch d {
	case event.Allow:
		return "plan accepted; edits ask first"
	case event.AllowAlways:
		return "plan accepted; edits run without asking"
	case event.Deny:
		return "keeping to plan mode"
	}
	return ""
}
