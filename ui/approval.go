package ui

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine"
)

// approvalCard is one pending question, drawn as a modal card: a tool
// call that would change something (its command line or diff) or a
// delegation (its type, prompt, tools and limits). It takes keys only
// while it is the active overlay and the input is blurred, so nothing
// typed before it appeared can answer it.
type approvalCard struct {
	req    *engine.ApprovalRequest
	meta   engine.Meta
	scroll int // first body line shown

	body    []string // drawn body, cached by width and style generation
	bodyKey [2]int
}

// delegation is the request's delegation preview, nil for a tool call.
func (c *approvalCard) delegation() *engine.DelegationPreview {
	if c.req.Kind != engine.ApproveDelegation {
		return nil
	}
	return c.req.Delegation
}

// title says what is asked and, for a child's tool call, which child
// asks (a delegation names its child already).
func (c *approvalCard) title() string {
	if d := c.delegation(); d != nil {
		return sanitize(fmt.Sprintf("Delegate? [%s] %s", d.AgentType, d.Description))
	}
	t := fmt.Sprintf("Allow %s?", c.req.Tool)
	if c.meta.Agent != "" && c.meta.Agent != engine.MainAgent {
		t = fmt.Sprintf("[%s] %s asks: %s", c.meta.AgentType, c.meta.Description, t)
	}
	return sanitize(t)
}

// subject names what was asked about, for the status line.
func (c *approvalCard) subject() string {
	if d := c.delegation(); d != nil {
		return sanitize(fmt.Sprintf("[%s] %s", d.AgentType, d.Description))
	}
	return sanitize(c.req.Tool)
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
		preview := sanitize(c.req.Preview)
		if looksLikeDiff(preview) {
			return diffLines(rc, preview)
		}
		var lines []string
		for _, para := range strings.Split(preview, "\n") {
			lines = append(lines, wrap(para, width-2)...)
		}
		return gutter(paint(lines, rc.styles.Card.Body), rc.styles.Card.Label.Render("$ "))
	}
	st := rc.styles.Card
	var lines []string
	for _, para := range strings.Split(sanitize(d.Prompt), "\n") {
		lines = append(lines, paint(wrap(para, width), st.Body)...)
	}
	field := func(label, value string) string { return st.Label.Render(label+" ") + st.Body.Render(sanitize(value)) }
	limits := fmt.Sprintf("%d steps", d.MaxSteps)
	if d.Timeout > 0 {
		limits += " · " + d.Timeout.String()
	}
	lines = append(lines, "",
		field("tools", strings.Join(d.Tools, " ")),
		field("model", d.Model)+"  "+field("limits", limits))
	estimate := fmt.Sprintf("~%s tokens", compact(int64(d.EstimatedTokens)))
	if d.CostKnown {
		estimate += fmt.Sprintf(" · $%.4f", d.EstimatedCost)
	}
	return append(lines, field("first request", estimate))
}

// keyHelp lists the answers the card takes.
func (c *approvalCard) keyHelp(rc *renderCtx, keys KeyMap) string {
	once, always := "allow once", "always allow "+c.req.Tool
	if d := c.delegation(); d != nil {
		once, always = "approve", "always for "+d.AgentType
	}
	st := rc.styles.Card
	item := func(k, desc string) string { return st.Key.Render(k) + " " + st.Label.Render(desc) }
	return strings.Join([]string{
		item(keys.Allow.Help().Key, once), item(keys.AllowAlways.Help().Key, sanitize(always)),
		item(keys.Deny.Help().Key, "deny"),
	}, st.Label.Render(" · "))
}

// maxCardWidth keeps a card readable on a very wide terminal.
const maxCardWidth = 100

// layout returns the card's body for a terminal width and how many body
// lines fit in height with the title, the keys and the frame.
func (c *approvalCard) layout(rc *renderCtx, width, height int) (body []string, page int) {
	body = c.drawBody(rc, max(min(width, maxCardWidth)-4, 1))
	page = max(height-4, 1)
	if len(body) > page && page > 1 {
		page-- // a line says where the window is
	}
	return body, page
}

// scrollBy moves the body window, kept within the body.
func (c *approvalCard) scrollBy(rc *renderCtx, delta, width, height int) {
	body, page := c.layout(rc, width, height)
	c.scroll = max(0, min(c.scroll+delta, len(body)-page))
}

// view draws the card at most width wide and height high. The body
// scrolls when it does not fit; the title and keys always show.
func (c *approvalCard) view(rc *renderCtx, keys KeyMap, width, height int) []string {
	st := rc.styles.Card
	body, page := c.layout(rc, width, height)
	width = min(width, maxCardWidth)
	from := max(0, min(c.scroll, len(body)-page))
	shown := body[from:min(len(body), from+page)]
	if len(shown) < len(body) {
		where := fmt.Sprintf("↑↓ scroll · lines %d–%d of %d", from+1, from+len(shown), len(body))
		shown = append(shown[:len(shown):len(shown)], st.Label.Render(where))
	}
	lines := append([]string{st.Title.Render(c.title())}, shown...)
	lines = append(lines, c.keyHelp(rc, keys))
	for i, line := range lines {
		lines[i] = fit(line, max(width-4, 1))
	}
	framed := strings.Split(st.Frame.Width(max(width-2, 1)).Render(strings.Join(lines, "\n")), "\n")
	for i, line := range framed {
		framed[i] = fit(line, width)
	}
	return framed
}

// answerCard answers the active card and shows the next one, or gives
// the keys back to the input. The answer is sent from a Cmd, never from
// Update.
func (m *Model) answerCard(a engine.Answer) tea.Cmd {
	card := m.approvals[0]
	m.approvals = m.approvals[1:]
	m.setStatus(statusInfo, answerWords[a.Decision]+": "+card.subject())
	m.refocus()
	req := card.req
	return func() tea.Msg {
		req.Answer(a)
		return nil
	}
}

// answerWords says an answer back to the person.
var answerWords = map[engine.Decision]string{
	engine.Allow: "allowed once", engine.AllowAlways: "always allowed", engine.Deny: "denied",
}
