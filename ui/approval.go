package ui

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/rules"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// approvalCard is one pending question, drawn as a modal card: a tool
// call that would change something (its command line or diff) or a
// delegation (its type, prompt, tools and limits). It takes keys only
// while it is the active overlay and the input is blurred, so nothing
// typed before it appeared can answer it.
type approvalCard struct {
	req    *event.ApprovalRequest
	meta   event.Meta
	number int // the asking child's pane number, 0 for the main agent
	scroll int // first body line shown
	seq    int // arrival order, naming the card in its timers
	// armed cards take keys; arming says the quiet period has started.
	armed, arming bool
	// shownAt is when the card became the active one; called says the
	// person was called back to it.
	shownAt time.Time
	called  bool

	body    []string // drawn body, cached by width and style generation
	bodyKey [2]int
}

// delegation is the request's delegation preview, nil for a tool call.
func (c *approvalCard) delegation() *event.DelegationPreview {
	if c.req.Kind != event.ApproveDelegation {
		return nil
	}
	return c.req.Delegation
}

// title says what is asked and, for a child's tool call, which child
// asks (a delegation names its child already).
func (c *approvalCard) title() string {
	if d := c.delegation(); d != nil {
		return termtext.Clean(fmt.Sprintf("Delegate? [%s] %s", d.AgentType, d.Description))
	}
	t := fmt.Sprintf("Allow %s?", c.req.Tool)
	if c.meta.Agent != "" && c.meta.Agent != event.MainAgent {
		t = fmt.Sprintf("[%s] %s asks: %s", c.meta.AgentType, c.meta.Description, t)
		if c.number > 0 {
			t = fmt.Sprintf("#%d %s", c.number, t)
		}
	}
	return termtext.Clean(t)
}

// covers says whether an "always" answer to c, adding chosen, answers
// other as well: a delegation to the same type, or a call of the same
// agent that the chosen rules allow.
func (c *approvalCard) covers(other *approvalCard, chosen []string, workspace string) bool {
	if c.req.Kind != other.req.Kind {
		return false
	}
	if d, o := c.delegation(), other.delegation(); d != nil && o != nil {
		return d.AgentType == o.AgentType
	}
	if c.meta.Agent != other.meta.Agent || len(chosen) == 0 {
		return false
	}
	list, err := rules.ParseAll(chosen)
	if err != nil {
		return false
	}
	return rules.Covered(list, rules.CallOf(other.req.Tool, json.RawMessage(other.req.Args), workspace))
}

// subject names what was asked about, for the status line.
func (c *approvalCard) subject() string {
	if d := c.delegation(); d != nil {
		return termtext.Clean(fmt.Sprintf("[%s] %s", d.AgentType, d.Description))
	}
	return termtext.Clean(c.req.Tool)
}

// drawBody returns the scrollable part at width, drawn once per width.
func (c *approvalCard) drawBody(rc *renderCtx, width int) []string {
	if key := [2]int{width, rc.gen}; c.body == nil || c.bodyKey != key {
		c.body, c.bodyKey = c.render(rc, width), key
	}
	return c.body
}

// render draws the scrollable part: exactly what will run, change or
// start.
func (c *approvalCard) render(rc *renderCtx, width int) []string {
	d := c.delegation()
	if d == nil {
		preview := termtext.Clean(c.req.Preview)
		if looksLikeDiff(preview) {
			return diffLines(rc, preview)
		}
		var lines []string
		for _, para := range strings.Split(preview, "\n") {
			lines = append(lines, wrap(para, width-2)...)
		}
		return gutter(paint(lines, rc.styles.Card.Body), "  ")
	}
	var lines []string
	for _, para := range strings.Split(termtext.Clean(d.Prompt), "\n") {
		lines = append(lines, paint(wrap(para, width), rc.styles.Card.Body)...)
	}
	return lines
}

// facts are a delegation's tools, model, limits and first-request
// estimate: shown under the prompt whatever its scroll, so the person
// always sees what will start. A permission card has none.
func (c *approvalCard) facts(rc *renderCtx) []string {
	d := c.delegation()
	if d == nil {
		return nil
	}
	st := rc.styles.Card
	field := func(label, value string) string {
		return st.Label.Render(label+" ") + st.Body.Render(termtext.Clean(value))
	}
	limits := fmt.Sprintf("%d steps", d.MaxSteps)
	if d.Timeout > 0 {
		limits += " · " + d.Timeout.String()
	}
	estimate := fmt.Sprintf("~%s tokens", compact(int64(d.EstimatedTokens)))
	if d.CostKnown {
		estimate += fmt.Sprintf(" · $%.4f", d.EstimatedCost)
	}
	lines := []string{field("tools", strings.Join(d.Tools, " "))}
	if len(d.DroppedTools) > 0 {
		lines = append(lines, field("dropped", strings.Join(d.DroppedTools, " ")+" (baton has no such tool)"))
	}
	lines = append(lines, field("model", d.Model)+"  "+field("limits", limits))
	if d.ModelWhy != "" {
		lines = append(lines, field("", d.ModelWhy))
	}
	lines = append(lines, isolationFacts(d, field)...)
	lines = append(lines, field("first request", estimate))
	// Without this line the child inherits nothing and asks on its own
	// cards.
	if len(d.Inherits) > 0 {
		lines = append(lines, field("inherits:", strings.Join(d.Inherits, ", ")))
	}
	if len(d.Rules) > 0 {
		lines = append(lines, field("own rules:", strings.Join(d.Rules, ", ")))
	}
	return lines
}

// maxCardWidth keeps a card readable on a very wide terminal.
const maxCardWidth = 100

// innerWidth is the width of a card's text on a terminal width wide.
func innerWidth(width int) int { return max(min(width, maxCardWidth)-4, 1) }

// layout returns the card's body for a terminal width and how many body
// lines fit in height with the title, tail lines and the frame.
func (c *approvalCard) layout(rc *renderCtx, width, height, tail int) (body []string, page int) {
	body = c.drawBody(rc, innerWidth(width))
	page = max(height-3-tail, 1)
	if len(body) > page && page > 1 {
		page-- // a line says where the window is
	}
	return body, page
}

// scrollBy moves the body window, kept within the body.
func (c *approvalCard) scrollBy(rc *renderCtx, delta, width, height, tail int) {
	body, page := c.layout(rc, width, height, tail)
	c.scroll = max(0, min(c.scroll+delta, len(body)-page))
}

// view draws the card at most width wide and height high: the title, the
// body (scrolled when it does not fit) or, while the prompt is edited,
// the editor's lines, then tail (the keys, or the reason line).
func (c *approvalCard) view(rc *renderCtx, width, height int, editing, tail []string) []string {
	st := rc.styles.Card
	shown := editing
	if shown == nil {
		body, page := c.layout(rc, width, height, len(tail))
		from := max(0, min(c.scroll, len(body)-page))
		shown = body[from:min(len(body), from+page)]
		if len(shown) < len(body) {
			where := fmt.Sprintf("↑↓ scroll · lines %d–%d of %d", from+1, from+len(shown), len(body))
			shown = append(shown[:len(shown):len(shown)], st.Label.Render(where))
		}
	}
	width = min(width, maxCardWidth)
	lines := append([]string{st.Title.Render(c.title())}, shown...)
	lines = append(lines, tail...)
	for i, line := range lines {
		lines[i] = fit(line, max(width-4, 1))
	}
	framed := strings.Split(st.Frame.Width(max(width-2, 1)).Render(strings.Join(lines, "\n")), "\n")
	for i, line := range framed {
		framed[i] = fit(line, width)
	}
	return framed
}

// cardView draws the active card in height lines at most.
func (m *Model) cardView(height int) []string {
	var editing []string
	if m.overlay == overlayEdit {
		editing = strings.Split(m.editor.View(), "\n")
	}
	return m.approvals[0].view(&m.conv.rc, m.width, height, editing, m.cardTail())
}

// cardTail is what closes the active card: its answers, or the reason
// line with what enter and esc do, or the editor's keys.
func (m *Model) cardTail() []string {
	st, k := m.styles.Card, m.keys
	item := func(b key.Binding, desc string) string {
		return st.Key.Render(b.Help().Key) + " " + st.Label.Render(desc)
	}
	sep := st.Label.Render(" · ")
	switch m.overlay {
	case overlayReason:
		return []string{m.reason.View(), item(k.Confirm, "deny, telling the model why") + sep + item(k.Cancel, "deny without a reason")}
	case overlayEdit:
		return []string{item(k.Confirm, "approve the edited prompt") + sep + item(k.Newline, "newline") + sep + item(k.Cancel, "back")}
	}
	card := m.approvals[0]
	return append(card.facts(&m.conv.rc), card.keyHelp(&m.conv.rc, k, m.pendingDelegations(), innerWidth(m.width))...)
}
