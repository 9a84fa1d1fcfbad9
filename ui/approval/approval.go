// Package approval is the queue of approval cards: the questions the
// engine asks before a tool changes something or a child starts, drawn
// one at a time with what will run, and answered by key. It owns the
// typing guard (a card takes keys only after a quiet period), the reason
// line given with a denial, the editor for a delegation's prompt and the
// fields of its budget.
package approval

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/charmbracelet/bubbles/key"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/themes"
	"github.com/seed-e4e525a6/baton/ui/input"
	"github.com/seed-e4e525a6/baton/ui/overlay"
	"github.com/seed-e4e525a6/baton/ui/status"
)

// mode is what the active card is doing: showing its answers, taking a
// reason for a denial, editing a delegation's prompt or its budget.
type mode int

const (
	bare mode = iota
	reasoning
	editing
	budgeting
)

// Stopper stops what esc on a tool card stops: the main agent's turn, or
// the one child that asked. The session is one.
type Stopper interface {
	Interrupt()
	StopAgent(id event.AgentID) error
}

// Model is the queue; the first card is the active one. It is the layer
// the root keeps on top while a card waits.
type Model struct {
	keys     KeyMap
	lineKeys input.KeyMap // enter, esc and newline of the reason line and editor
	styles   *themes.Styles
	cards    []*card
	mode     mode
	reason   *input.Line
	editor   *input.Editor
	budget   *budgetForm
	stopper  Stopper
	status   *status.Model // where answers are said

	width, height int // the terminal's width; the card's room
	now           time.Time
	// after schedules msg in d: tea.Tick in the program; tests replace
	// it to drive the typing guard by hand.
	after func(d time.Duration, msg tea.Msg) tea.Cmd
	// gen counts keystrokes: a card arms only when it has not moved for
	// armDelay. seq numbers cards as they arrive.
	gen, seq int
}

// New makes an empty queue. after is the clock the typing guard's
// quiet period runs on; stopper stops the turn or child an esc stops;
// answers are said on said.
func New(keys KeyMap, lineKeys input.KeyMap, after func(time.Duration, tea.Msg) tea.Cmd, stopper Stopper, said *status.Model) *Model {
	return &Model{
		keys: keys, lineKeys: lineKeys, after: after, stopper: stopper, status: said,
		reason: input.NewLine("reason", "optional; enter denies"),
		editor: input.NewEditor(lineKeys),
		budget: newBudgetForm(),
	}
}

// SetStyles restyles the cards for a theme; their drawings are redone.
func (m *Model) SetStyles(styles *themes.Styles) {
	m.styles = styles
	m.reason.SetStyles(styles)
	m.editor.SetStyles(styles)
	m.budget.setStyles(styles)
	for _, c := range m.cards {
		c.body = nil
	}
}

// SetSize fits the cards to the terminal width and the room a card may
// take (the conversation keeps a few lines above it).
func (m *Model) SetSize(width, height int) {
	m.width, m.height = width, max(height, 1)
	m.reason.SetSize(InnerWidth(width))
	m.budget.setSize(InnerWidth(width))
	if m.mode == editing {
		m.editor.SetSize(InnerWidth(width), max(m.height-4, 1))
	}
}

// SetAfter replaces the clock the typing guard runs on: tests drive it
// by hand.
func (m *Model) SetAfter(after func(time.Duration, tea.Msg) tea.Cmd) { m.after = after }

// SetNow is the root's clock, for how long a card has waited.
func (m *Model) SetNow(now time.Time) { m.now = now }

// Push queues a card for a request; number is the asking child's pane
// number (0 for the main agent). A nil request is ignored.
func (m *Model) Push(meta event.Meta, req *event.ApprovalRequest, number int) bool {
	if req == nil {
		return false
	}
	m.seq++
	m.cards = append(m.cards, &card{req: req, meta: meta, seq: m.seq, number: number})
	return true
}

// Drop removes a card answered elsewhere (a remembered choice, a
// cancelled agent); the reason line or editor of a dropped first card
// closes with it. It reports whether the card was here.
func (m *Model) Drop(id string) bool {
	for i, c := range m.cards {
		if c.req.ID == id {
			m.cards = append(m.cards[:i:i], m.cards[i+1:]...)
			if i == 0 {
				m.close()
			}
			return true
		}
	}
	return false
}

// DropAll denies and removes every card a finished turn left; their
// agents have stopped, and the denial is harmless since the first answer
// wins.
func (m *Model) DropAll() tea.Cmd {
	cmds := make([]tea.Cmd, 0, len(m.cards))
	for _, c := range m.cards {
		cmds = append(cmds, answer(c.req, event.Answer{Decision: event.Deny, Reason: "the turn ended"}))
	}
	m.cards = nil
	m.close()
	return tea.Batch(cmds...)
}

// close ends the active card's reason line or editor.
func (m *Model) close() {
	m.mode = bare
	m.reason.Blur()
	m.editor.Close()
	m.budget.close()
}

// Len is how many cards wait.
func (m *Model) Len() int { return len(m.cards) }

// Delegations counts the delegation cards waiting: what Y would approve.
func (m *Model) Delegations() int {
	n := 0
	for _, c := range m.cards {
		if c.delegation() != nil {
			n++
		}
	}
	return n
}

// Armed says whether the active card takes keys.
func (m *Model) Armed() bool { return len(m.cards) > 0 && m.cards[0].armed }

// HoldsKeys says whether the active card takes this key: only once
// armed, and never pasted text; its reason line and editor take every
// key.
func (m *Model) HoldsKeys(msg tea.KeyMsg) bool {
	return m.mode != bare || (m.Armed() && !msg.Paste)
}

// Route types a key the card does not hold into the prompt box, so
// nothing typed is lost and nothing typed answers; ? on an armed card
// spells its keys out.
func (m *Model) Route(msg tea.KeyMsg) overlay.Route {
	switch {
	case !m.HoldsKeys(msg):
		return overlay.TypeAhead
	case key.Matches(msg, m.keys.Help) && !m.Typing():
		return overlay.Help
	}
	return overlay.Take
}

// Place is under the conversation: its newest lines, often what the card
// is about, stay in sight.
func (m *Model) Place() overlay.Place { return overlay.Body }

// Typing says whether the reason line, the editor or the budget fields
// are open: every key is text then.
func (m *Model) Typing() bool { return m.mode != bare }
