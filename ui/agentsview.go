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
		return avail / 4
	}
	return avail / 2
}

// agentsHeight is how many lines the agents area takes out of avail: what
// the live panes want, within their share, and at least a line for them
// when there is any room at all.
func (m *Model) agentsHeight(avail int) int {
	live := m.agents.live()
	if len(live) == 0 || avail < 2 {
		return 0
	}
	want := 1 // the rule over the panes
	for _, p := range live {
		p.SetSize(m.width, maxPaneLines)
		want += p.Lines()
	}
	return min(want, max(m.agentsShare(avail), 1))
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
	return append(rule, m.panesView(live, height)...)
}

// agentsRule is the line over the panes: how many children are live.
func (m *Model) agentsRule(n int) string {
	label := fmt.Sprintf("─ sub-agents (%d) ", n)
	return fit(m.styles.Pane.Muted.Render(label+strings.Repeat("─", max(m.width-ansi.StringWidth(label), 0))), m.width)
}

// panesView draws the live panes in height lines.
func (m *Model) panesView(live []*pane.Pane, height int) []string {
	if len(live) > height {
		return m.headerWindow(live, height)
	}
	m.agents.top = 0
	want := make([]int, len(live))
	total := 0
	for i, p := range live {
		p.SetSize(m.width, maxPaneLines)
		want[i] = p.Lines()
		total += want[i]
	}
	sizes := want
	if total > height {
		sizes = shareLines(want, height, focusIndex(live, m.focus))
	}
	lines := make([]string, 0, height)
	for i, p := range live {
		p.SetSize(m.width, sizes[i])
		lines = append(lines, paneLines(p, sizes[i], m.width)...)
	}
	return lines
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
// that counts the hidden ones; the window scrolls to keep the focused
// pane in view.
func (m *Model) headerWindow(live []*pane.Pane, height int) []string {
	shown := max(height-1, 0)
	a := m.agents
	if f := focusIndex(live, m.focus); f >= 0 {
		a.top = min(a.top, f)
		a.top = max(a.top, f-shown+1)
	}
	a.top = max(0, min(a.top, len(live)-shown))
	lines := make([]string, 0, height)
	for _, p := range live[a.top : a.top+shown] {
		p.SetSize(m.width, 1)
		lines = append(lines, fit(p.Header(), m.width))
	}
	// "running" only when it is true of every hidden child: some may
	// still await approval or a free slot.
	running := " running"
	for i, p := range live {
		if hidden := i < a.top || i >= a.top+shown; hidden && p.State() != pane.Running {
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
		return []string{fit(p.Header(), width)}
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
