package approval

import (
	"fmt"

	"github.com/charmbracelet/bubbles/key"

	"github.com/seed-e4e525a6/baton/ui/overlay"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// KeyMap is the answers a card takes. The root's KeyMap embeds it, so
// every key still goes through one map. Deny asks for an optional reason;
// DenyNow denies without one (and, on a tool card, stops the turn).
type KeyMap struct {
	Allow       key.Binding
	AllowAlways key.Binding
	AllowFolder key.Binding
	AllowAll    key.Binding
	Edit        key.Binding
	Budget      key.Binding
	Deny        key.Binding
	DenyNow     key.Binding
	TrustFolder key.Binding
	CardUp      key.Binding
	CardDown    key.Binding
	// NextField and PrevField move between a budget's fields.
	NextField, PrevField key.Binding
	// Help is the root's ?, which spells out an armed card's answers.
	Help key.Binding
}

// DefaultKeyMap is the cards' standard keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Allow:       key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "allow once")),
		AllowAlways: key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "always allow")),
		AllowFolder: key.NewBinding(key.WithKeys("A"), key.WithHelp("A", "always allow the folder")),
		AllowAll:    key.NewBinding(key.WithKeys("Y"), key.WithHelp("Y", "approve all")),
		Edit:        key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "edit prompt")),
		Budget:      key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "edit budget")),
		Deny:        key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "deny")),
		DenyNow:     key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "deny")),
		TrustFolder: key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "trust this folder")),
		CardUp:      key.NewBinding(key.WithKeys("up", "pgup"), key.WithHelp("↑", "scroll")),
		CardDown:    key.NewBinding(key.WithKeys("down", "pgdown"), key.WithHelp("↓", "scroll")),
		NextField:   key.NewBinding(key.WithKeys("tab", "down"), key.WithHelp("tab", "next field")),
		PrevField:   key.NewBinding(key.WithKeys("shift+tab", "up"), key.WithHelp("shift+tab", "previous field")),
		Help:        key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "all keys")),
	}
}

// answers are the keys the card takes, each with what it means on this
// card.
func (m *Model) answers(c *card) []key.Binding {
	k := m.keys
	if s := c.server(); s != nil {
		return m.serverAnswers(s)
	}
	if c.isPlan() {
		return m.planAnswers()
	}
	if d := c.delegation(); d != nil {
		items := []key.Binding{relabel(k.Allow, "approve"), k.Deny, relabel(k.AllowAlways, "always for "+d.AgentType), k.Edit, k.Budget}
		if n := m.Delegations(); n > 1 {
			items = append(items, relabel(k.AllowAll, fmt.Sprintf("approve all %d", n)))
		}
		return items
	}
	items := []key.Binding{k.Allow, relabel(k.Deny, "deny (reason)"), relabel(k.DenyNow, denyNowWords(c))}
	if len(c.req.Always) > 0 {
		items = append(items, relabel(k.AllowAlways, "always allow "+termtext.Clean(c.req.AlwaysLabel)))
	}
	if len(c.req.AlwaysFolder) > 0 {
		items = append(items, relabel(k.AllowFolder, "always allow "+termtext.Clean(c.req.AlwaysFolderLabel)))
	}
	return items
}

// ShortHelp is what the footer adds to the active card: the card lists
// its own answers, so only what it does not say, and ?; the reason
// line's and editor's keys while they are open. Nothing while the card
// is unarmed: its keys cannot fire yet, and typing goes to the input.
func (m *Model) ShortHelp() []key.Binding {
	k := m.lineKeys
	switch {
	case m.mode == reasoning && m.cards[0].isPlan():
		return []key.Binding{relabel(k.Confirm, "keep planning"), relabel(k.Cancel, "without a word")}
	case m.mode == reasoning:
		return []key.Binding{relabel(k.Confirm, "deny"), relabel(k.Cancel, "deny without a reason")}
	case m.mode == editing:
		return []key.Binding{relabel(k.Confirm, "approve edited prompt"), k.Newline, relabel(k.Cancel, "back to the card")}
	case m.mode == budgeting:
		return m.budgetKeys()
	case !m.Armed():
		return nil
	case m.cards[0].delegation() != nil:
		return []key.Binding{m.keys.DenyNow, m.keys.CardDown, m.keys.Help}
	}
	return []key.Binding{m.keys.CardDown, m.keys.Help}
}

// FullHelp is every answer the active card takes, as ? spells them out;
// nil while the reason line or editor is open (ShortHelp says it all).
func (m *Model) FullHelp() []overlay.KeyGroup {
	if m.mode != bare || len(m.cards) == 0 {
		return nil
	}
	return []overlay.KeyGroup{{Where: "card", Keys: m.answerKeys()}}
}

// answerKeys is every answer the active card takes.
func (m *Model) answerKeys() []key.Binding {
	c, k := m.cards[0], m.keys
	if s := c.server(); s != nil {
		return append(m.serverAnswers(s), k.CardDown)
	}
	if c.isPlan() {
		return append(m.planAnswers(), k.CardDown)
	}
	if d := c.delegation(); d != nil {
		keys := []key.Binding{relabel(k.Allow, "approve"), k.Deny, relabel(k.AllowAlways, "always for "+termtext.Clean(d.AgentType)), k.Edit, k.Budget}
		if m.Delegations() > 1 {
			keys = append(keys, k.AllowAll)
		}
		return append(keys, k.DenyNow, k.CardDown)
	}
	keys := []key.Binding{k.Allow, relabel(k.Deny, "deny (reason)"), relabel(k.DenyNow, denyNowWords(c))}
	if len(c.req.Always) > 0 {
		keys = append(keys, k.AllowAlways)
	}
	if len(c.req.AlwaysFolder) > 0 {
		keys = append(keys, k.AllowFolder)
	}
	return append(keys, k.CardDown)
}

// budgetKeys are the keys of the open budget fields.
func (m *Model) budgetKeys() []key.Binding {
	return []key.Binding{relabel(m.lineKeys.Confirm, "approve with this budget"), m.keys.NextField, relabel(m.lineKeys.Cancel, "back to the card")}
}

// denyNowWords says what esc does on a tool card: it stops the agent
// asking, which for a sub-agent is that child alone.
func denyNowWords(c *card) string {
	if c.child() {
		return "deny & stop this child"
	}
	return "deny & stop turn"
}

// relabel is a key with the words it means in one state.
func relabel(b key.Binding, desc string) key.Binding {
	b.SetHelp(b.Help().Key, desc)
	return b
}
