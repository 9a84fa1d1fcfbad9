package approval

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// An MCP server of a folder the person has not trusted asks before it
// starts. Its card shows every byte of the command that would run
// (control characters spelled out, wrapped, never cut) and where it is
// declared; y starts it this once, n leaves it off, t trusts the folder
// as `baton trust` does. No model waits on the answer, so there is no
// reason to give and no turn to stop.

// server is the request's server preview, nil for other cards.
func (c *card) server() *event.ServerPreview {
	if c.req.Kind != event.ApproveMCPServer {
		return nil
	}
	return c.req.Server
}

// serverTitle asks the question.
func serverTitle(s *event.ServerPreview, width int) []string {
	return wrap("Start MCP server "+termtext.Visible(s.Name)+"?", width)
}

// serverBody is the command, wrapped at any character so nothing of it
// is cut, and indented like a command card's.
func (m *Model) serverBody(s *event.ServerPreview, width int) []string {
	var lines []string
	for _, para := range strings.Split(termtext.Visible(s.Command), "\n") {
		for _, line := range wrap(para, width-2) {
			lines = append(lines, "  "+m.styles.Card.Body.Render(line))
		}
	}
	return lines
}

// serverFacts say where the server is declared and why it asks.
func (m *Model) serverFacts(s *event.ServerPreview) []string {
	st := m.styles.Card
	var lines []string
	for _, line := range wrap("from "+termtext.Visible(s.Source)+", in a folder you have not trusted", InnerWidth(m.width)) {
		lines = append(lines, st.Label.Render(line))
	}
	return lines
}

// serverAnswers are the keys the card takes.
func (m *Model) serverAnswers(s *event.ServerPreview) []key.Binding {
	k := m.keys
	items := []key.Binding{relabel(k.Allow, "start it this once"), relabel(k.Deny, "leave it off")}
	if s.CanTrust {
		items = append(items, relabel(k.TrustFolder, "trust this folder (as baton trust: its servers and project settings apply)"))
	}
	return items
}

// serverKey answers the card: n and esc alike leave the server off.
func (m *Model) serverKey(s *event.ServerPreview, msg tea.KeyMsg) (tea.Cmd, outcome) {
	k := m.keys
	switch {
	case key.Matches(msg, k.Allow):
		return m.answer(event.Answer{Decision: event.Allow})
	case key.Matches(msg, k.Deny), key.Matches(msg, k.DenyNow):
		return m.answer(event.Answer{Decision: event.Deny})
	case key.Matches(msg, k.TrustFolder) && s.CanTrust:
		return m.answer(event.Answer{Decision: event.AllowAlways})
	case key.Matches(msg, k.CardUp):
		m.scrollBy(-1)
	case key.Matches(msg, k.CardDown):
		m.scrollBy(1)
	}
	return nil, outcome{}
}

// serverWords says an answer back to the person.
func serverWords(d event.Decision) string {
	switch d {
	case event.Allow:
		return "starting MCP server %s this once"
	case event.AllowAlways:
		return "trusting this folder; starting MCP server %s"
	case event.Deny:
		return "MCP server %s stays off"
	}
	return ""
}
