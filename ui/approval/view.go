package approval

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/ui/diffview"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// maxCardWidth keeps a card readable on a very wide terminal.
const maxCardWidth = 100

// InnerWidth is the width of a card's text on a terminal width wide.
func InnerWidth(width int) int { return max(min(width, maxCardWidth)-4, 1) }

// drawBody returns the scrollable part at width, drawn once per width
// (SetStyles forgets the drawings).
func (m *Model) drawBody(c *card, width int) []string {
	if c.body == nil || c.bodyKey != width {
		c.body, c.bodyKey = m.render(c, width), width
	}
	return c.body
}

// render draws the scrollable part: exactly what will run, change or
// start.
func (m *Model) render(c *card, width int) []string {
	st := m.styles.Card
	if s := c.server(); s != nil {
		return m.serverBody(s, width)
	}
	d := c.delegation()
	if d == nil {
		preview := termtext.Clean(c.req.Preview)
		if diffview.Looks(preview) {
			return m.diffLines(preview)
		}
		var lines []string
		for _, para := range strings.Split(preview, "\n") {
			for _, line := range wrap(para, width-2) {
				lines = append(lines, "  "+st.Body.Render(line))
			}
		}
		return lines
	}
	var lines []string
	for _, para := range strings.Split(termtext.Clean(d.Prompt), "\n") {
		for _, line := range wrap(para, width) {
			lines = append(lines, st.Body.Render(line))
		}
	}
	return lines
}

// diffLines paints a diff for the card, its "--- a/x" and "+++ b/x"
// lines joined into one naming the file: a card's room goes to the
// change itself.
func (m *Model) diffLines(diff string) []string {
	lines := diffview.Lines(m.styles, diff)
	old, rest, _ := strings.Cut(diff, "\n")
	newer, _, _ := strings.Cut(rest, "\n")
	from, ok1 := strings.CutPrefix(old, "--- ")
	to, ok2 := strings.CutPrefix(newer, "+++ ")
	if !ok1 || !ok2 || len(lines) < 2 {
		return lines
	}
	from, to = strings.TrimPrefix(from, "a/"), strings.TrimPrefix(to, "b/")
	var file string
	switch {
	case from == to:
		file = to
	case from == "/dev/null":
		file = to + " (new file)"
	case to == "/dev/null":
		file = from + " (deleted)"
	default:
		return lines
	}
	return append([]string{m.styles.Diff.File.Render(file)}, lines[2:]...)
}

// facts are a delegation's tools, model, limits and first-request
// estimate: shown under the prompt whatever its scroll, so the person
// always sees what will start. A permission card has one only when a
// worktree child asks: where the call works.
func (m *Model) facts(c *card) []string {
	if s := c.server(); s != nil {
		return m.serverFacts(s)
	}
	d := c.delegation()
	if d == nil {
		return m.worktreeFact(c)
	}
	st := m.styles.Card
	field := func(label, value string) string {
		return st.Label.Render(label+" ") + st.Body.Render(termtext.Clean(value))
	}
	limits := fmt.Sprintf("%d steps", d.MaxSteps)
	if d.Timeout > 0 {
		limits += " · " + d.Timeout.String()
	}
	lines := []string{field("tools", strings.Join(d.Tools, " "))}
	if d.ACPAgent != "" {
		lines = []string{field("acp agent", "runs $ "+d.ACPAgent)}
	}
	if len(d.DroppedTools) > 0 {
		lines = append(lines, field("dropped", strings.Join(d.DroppedTools, " ")+" (baton has no such tool)"))
	}
	if d.Withheld != "" {
		lines = append(lines, field("withheld", d.Withheld))
	}
	lines = append(lines, field("model", d.Model)+"  "+field("limits", limits))
	if d.ModelWhy != "" {
		lines = append(lines, field("", d.ModelWhy))
	}
	lines = append(lines, isolationFacts(d, field)...)
	var runs []string
	if d.Runs != "" && d.Runs != "local" {
		runs = append(runs, "in "+d.Runs)
	}
	if d.Background {
		runs = append(runs, "in the background · the turn goes on")
	}
	if len(runs) > 0 {
		lines = append(lines, field("runs", strings.Join(runs, " · ")))
	}
	first := field("first request", estimate(d))
	if b := budgetWords(d, d.Budget); b != "" {
		first += "  " + field("budget", b)
	}
	lines = append(lines, first)
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

// page returns the active card's body and how many of its lines fit in
// the card's height with the title, the tail lines and the frame.
func (m *Model) page(c *card, tail int) (body []string, page int) {
	body = m.drawBody(c, InnerWidth(m.width))
	page = max(m.height-3-tail, 1)
	if len(body) > page && page > 1 {
		page-- // a line says where the window is
	}
	return body, page
}

// scrollBy moves the active card's body window, kept within the body.
func (m *Model) scrollBy(delta int) {
	c := m.cards[0]
	body, page := m.page(c, len(m.tail())+len(m.titleLines(c))-1)
	c.scroll = max(0, min(c.scroll+delta, len(body)-page))
}

// View draws the active card at most the width and height SetSize gave:
// the title, the body (scrolled when it does not fit) or, while the
// prompt is edited, the editor, then the tail (the answers, or the
// reason line). Nothing while no card waits.
func (m *Model) View() string {
	if len(m.cards) == 0 {
		return ""
	}
	c, st, tail := m.cards[0], m.styles.Card, m.tail()
	title := m.titleLines(c)
	var shown []string
	if m.mode == editing {
		shown = strings.Split(m.editor.View(), "\n")
	} else {
		body, page := m.page(c, len(tail)+len(title)-1)
		from := max(0, min(c.scroll, len(body)-page))
		shown = body[from:min(len(body), from+page)]
		if len(shown) < len(body) {
			where := fmt.Sprintf("↑↓ scroll · lines %d–%d of %d", from+1, from+len(shown), len(body))
			shown = append(shown[:len(shown):len(shown)], st.Label.Render(where))
		}
	}
	width := min(m.width, maxCardWidth)
	lines := append(title, shown...)
	lines = append(lines, tail...)
	for i, line := range lines {
		lines[i] = termtext.Fit(line, max(width-4, 1))
	}
	framed := strings.Split(st.Frame.Width(max(width-2, 1)).Render(strings.Join(lines, "\n")), "\n")
	for i, line := range framed {
		framed[i] = termtext.Fit(line, width)
	}
	return strings.Join(framed, "\n")
}

// titleLines is the card's title wrapped to its width, so on a narrow
// terminal the question is never cut: "… asks: Allow write_file?".
func (m *Model) titleLines(c *card) []string {
	lines := c.title(InnerWidth(m.width))
	for i, line := range lines {
		lines[i] = m.styles.Card.Title.Render(line)
	}
	return lines
}

// tail is what closes the active card: its facts and answers, or the
// reason line with what enter and esc do, or the editor's keys.
func (m *Model) tail() []string {
	k, width := m.lineKeys, InnerWidth(m.width)
	switch m.mode {
	case reasoning:
		confirm, cancel := "deny, telling the model why", "deny without a reason"
		if m.cards[0].isPlan() {
			confirm, cancel = "keep planning, telling the model what to change", "keep planning without a word"
		}
		return append([]string{m.reason.View()},
			m.keyLines([]key.Binding{relabel(k.Confirm, confirm), relabel(k.Cancel, cancel)}, width)...)
	case editing:
		return m.keyLines([]key.Binding{relabel(k.Confirm, "approve the edited prompt"), k.Newline, relabel(k.Cancel, "back")}, width)
	case budgeting:
		return append(m.budgetLines(m.cards[0].delegation()), m.keyLines(m.budgetKeys(), width)...)
	}
	c := m.cards[0]
	return append(m.facts(c), m.keyHelp(c, width)...)
}

// keyHelp lists the answers the card takes, in lines at most width wide,
// a long one wrapped under its key so none is lost on a narrow terminal.
// Until the card is armed the keys are shown dimmed and without their
// meaning, with what happens meanwhile.
func (m *Model) keyHelp(c *card, width int) []string {
	items := m.answers(c)
	if !c.armed {
		names := make([]string, len(items))
		for i, it := range items {
			names[i] = it.Help().Key
		}
		return []string{m.styles.Card.Label.Render(strings.Join(names, " ") + " · the card takes keys once typing pauses")}
	}
	return m.keyLines(items, width)
}

// keyLines lists keys with their meanings in lines at most width wide,
// a long one wrapped under its key.
func (m *Model) keyLines(items []key.Binding, width int) []string {
	st := m.styles.Card
	sep := st.Label.Render(" · ")
	var lines []string
	line := ""
	for _, it := range items {
		k, desc := it.Help().Key, termtext.Clean(it.Help().Desc)
		part := st.Key.Render(k) + " " + st.Label.Render(desc)
		if lipgloss.Width(part) > width {
			if line != "" {
				lines, line = append(lines, line), ""
			}
			pad := strings.Repeat(" ", ansi.StringWidth(k)+1)
			for i, row := range wrap(desc, max(width-ansi.StringWidth(k)-1, 1)) {
				lead := pad
				if i == 0 {
					lead = st.Key.Render(k) + " "
				}
				lines = append(lines, lead+st.Label.Render(row))
			}
			continue
		}
		switch {
		case line == "":
			line = part
		case lipgloss.Width(line+sep+part) <= width:
			line += sep + part
		default:
			lines, line = append(lines, line), part
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}
