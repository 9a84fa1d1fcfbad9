package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/pane"
)

// maxPaneLines is the most a live pane takes: its header and the last
// few lines of its activity.
const maxPaneLines = 5

// agentsShare is the part of the room below the header that live panes
// may take: half normally, a quarter while a card needs the room.
func (m *Model) agentsShare(avail int) int {
	if m.cardActive() {
		// While a card asks, each live child keeps its header line and
		// the card (which names the child asking) takes the rest.
		return min(avail/4, 1+len(m.agents.live()))
	}
	return avail / 2
}

// fitAgents sizes the agents area and every live pane in it, in Update
// whenever something may have changed them, so drawing only reads the
// sizes: the area takes what the live panes want out of the room below
// the header, within its share and at least a line when there is any
// room at all. When all fit, each pane gets what it wants; when only
// headers fit, every pane is its header and the spare lines go to the
// focused pane first; when not even that fits, a window of headers
// follows the focus.
func (m *Model) fitAgents() {
	a, live, avail := m.agents, m.agents.live(), m.roomBelowHeader()
	a.area, a.sizes = 0, a.sizes[:0]
	if len(live) == 0 || avail < 2 {
		return
	}
	want := make([]int, len(live))
	total := 0
	for i, p := range live {
		p.SetSize(m.width, maxPaneLines)
		want[i] = p.Lines()
		total += want[i]
	}
	a.area = min(1+total, max(m.agentsShare(avail), 1)) // the rule over the panes
	height := a.area
	if height > 1 {
		height--
	}
	focus := focusIndex(live, m.focus)
	if len(live) > height {
		shown := max(height-1, 0)
		if focus >= 0 {
			a.top = max(min(a.top, focus), focus-shown+1)
		}
		a.top = max(0, min(a.top, len(live)-shown))
		return
	}
	a.top = 0
	sizes := want
	if total > height {
		sizes = shareLines(want, height, focus)
	}
	for i, p := range live {
		p.SetSize(m.width, sizes[i])
	}
	a.sizes = append(a.sizes, sizes...)
}

// agentsView draws a rule and the live panes in height lines. When all
// fit, each gets what it wants; when only headers fit, every pane is its
// header and the spare lines go to the focused pane first; when not even
// that fits, a window of headers follows the focus and one row counts
// the rest.
func (m *Model) agentsView(height int) []string {
	live := m.agents.live()
	if height <= 0 || len(live) == 0 {
		return nil
	}
	var rule []string
	if height > 1 {
		rule, height = []string{m.agentsRule(len(live))}, height-1
	}
	if len(m.agents.sizes) != len(live) {
		return append(rule, m.headerWindow(live, height)...)
	}
	lines := make([]string, 0, height)
	for i, p := range live {
		lines = append(lines, paneLines(p, m.agents.sizes[i], m.width)...)
	}
	return append(rule, lines...)
}

// agentsRule is the line over the panes: how many children are live.
func (m *Model) agentsRule(n int) string {
	label := fmt.Sprintf("─ sub-agents (%d) ", n)
	return fit(m.styles.Pane.Muted.Render(label+strings.Repeat("─", max(m.width-ansi.StringWidth(label), 0))), m.width)
}

// shareLines gives each pane one line, then the rest of height to the
// focused pane and the others in order, none beyond what it wants.
func shareLines(want []int, height, focus int) []int {
	sizes := make([]int, len(want))
	spare := height - len(want)
	for i := range sizes {
		sizes[i] = 1
	}
	order := make([]int, 0, len(want))
	if focus >= 0 {
		order = append(order, focus)
	}
	for i := range want {
		if i != focus {
			order = append(order, i)
		}
	}
	for _, i := range order {
		extra := min(want[i]-1, spare)
		sizes[i] += extra
		spare -= extra
	}
	return sizes
}

// headerWindow draws headers only, for as many panes as fit beside a row
// that counts the hidden ones; fitAgents scrolled the window to keep the
// focused pane in view.
func (m *Model) headerWindow(live []*pane.Pane, height int) []string {
	shown := max(height-1, 0)
	top := max(0, min(m.agents.top, len(live)-shown))
	lines := make([]string, 0, height)
	for _, p := range live[top : top+shown] {
		lines = append(lines, fit(p.HeaderLine(m.width), m.width))
	}
	// "running" only when it is true of every hidden child: some may
	// still await approval or a free slot.
	running := " running"
	for i, p := range live {
		if hidden := i < top || i >= top+shown; hidden && p.State() != pane.Running {
			running = ""
		}
	}
	more := fmt.Sprintf("+%d more%s", len(live)-shown, running)
	if shown == 0 {
		more = plural(len(live), "sub-agent") + running
	}
	return append(lines, fit(m.styles.Pane.Muted.Render("  "+more+" · tab to move through them"), m.width))
}

// paneLines draws a pane in exactly height lines, none wider than width.
func paneLines(p *pane.Pane, height, width int) []string {
	if height == 1 {
		return []string{fit(p.HeaderLine(width), width)}
	}
	lines := strings.Split(p.View(), "\n")
	if len(lines) > height {
		lines = lines[:height]
	}
	for i, line := range lines {
		lines[i] = fit(line, width)
	}
	for len(lines) < height {
		lines = append(lines, "")
	}
	return lines
}

// focusIndex is the position of the focused child among the live panes,
// -1 when none of them has the focus.
func focusIndex(live []*pane.Pane, id event.AgentID) int {
	if id == "" {
		return -1
	}
	for i, p := range live {
		if p.ID() == id {
			return i
		}
	}
	return -1
}
