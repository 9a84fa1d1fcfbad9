package agents

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/pane"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// Pane is what the area lays out: a live child's pane today; a
// background command or a remote child could be one tomorrow. Its height
// is computed from what it holds, and it is drawn at the size given.
type Pane interface {
	ID() event.AgentID
	// Want is how many lines it would fill at width, its header included.
	Want(width int) int
	// View draws it in at most height lines of width.
	View(width, height int) string
	// HeaderLine is its first line at width, all a pane shows when only
	// headers fit.
	HeaderLine(width int) string
	// Running says it is at work, not waiting for approval or a slot.
	Running() bool
}

// Fit lays the area out in Update, whenever something may have changed
// it, so drawing only reads the sizes: the area takes what the live
// panes want out of room (the lines below the header), within its share
// and at least a line when there is any room at all. When all fit, each
// pane gets what it wants; when only headers fit, every pane is its
// header and the spare lines go to the focused pane first; when not even
// that fits, a window of headers follows the focus. card says a card
// waits and needs the room more.
func (a *Area) Fit(width, room int, card bool) {
	live := a.shown()
	a.width, a.height, a.sizes = width, 0, a.sizes[:0]
	if len(live) == 0 || room < 2 {
		return
	}
	want := make([]int, len(live))
	total := 0
	for i, p := range live {
		want[i] = p.Want(width)
		total += want[i]
	}
	a.height = min(1+total, max(share(room, len(live), card), 1)) // the rule over the panes
	height := a.height
	if height > 1 {
		height--
	}
	focus := focusIndex(live, a.focus)
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
	a.sizes = append(a.sizes, sizes...)
}

// Height is how many lines the area takes, as Fit left it.
func (a *Area) Height() int { return a.height }

// share is the part of room the live panes may take: half normally; a
// quarter while a card needs the room, where each live child keeps its
// header line and the card (which names the child asking) takes the
// rest.
func share(room, live int, card bool) int {
	if card {
		return min(room/4, 1+live)
	}
	return room / 2
}

// shown are the live panes as the area lays them out.
func (a *Area) shown() []Pane {
	var out []Pane
	for _, p := range a.all {
		if p.Live() {
			out = append(out, p)
		}
	}
	return out
}

// View draws a rule and the live panes in height lines, as Fit laid
// them out; when only a window of headers fits, a row counts the rest.
func (a *Area) View(height int) []string {
	live := a.shown()
	if height <= 0 || len(live) == 0 {
		return nil
	}
	var rule []string
	if height > 1 {
		rule, height = []string{a.rule(len(live))}, height-1
	}
	if len(a.sizes) != len(live) {
		return append(rule, a.headerWindow(live, height)...)
	}
	lines := make([]string, 0, height)
	for i, p := range live {
		lines = append(lines, paneLines(p, a.sizes[i], a.width)...)
	}
	return append(rule, lines...)
}

// rule is the line over the panes: how many children are live.
func (a *Area) rule(n int) string {
	key := ruleKey{n, a.width, a.cfg.Styles.Palette.Name}
	if a.ruleLine == "" || a.ruleFor != key {
		label := fmt.Sprintf("─ sub-agents (%d) ", n)
		a.ruleFor = key
		a.ruleLine = termtext.Fit(a.cfg.Styles.Pane.Muted.Render(label+strings.Repeat("─", max(a.width-ansi.StringWidth(label), 0))), a.width)
	}
	return a.ruleLine
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
// that counts the hidden ones; Fit scrolled the window to keep the
// focused pane in view.
func (a *Area) headerWindow(live []Pane, height int) []string {
	shown := max(height-1, 0)
	top := max(0, min(a.top, len(live)-shown))
	lines := make([]string, 0, height)
	for _, p := range live[top : top+shown] {
		lines = append(lines, termtext.Fit(p.HeaderLine(a.width), a.width))
	}
	// "running" only when it is true of every hidden child: some may
	// still await approval or a free slot.
	running := " running"
	for i, p := range live {
		if hidden := i < top || i >= top+shown; hidden && !p.Running() {
			running = ""
		}
	}
	more := fmt.Sprintf("+%d more%s", len(live)-shown, running)
	if shown == 0 {
		more = event.Plural(len(live), "sub-agent") + running
	}
	return append(lines, termtext.Fit(a.cfg.Styles.Pane.Muted.Render("  "+more+" · tab to move through them"), a.width))
}

// paneLines draws a pane in exactly height lines, none wider than width.
func paneLines(p Pane, height, width int) []string {
	if height == 1 {
		return []string{termtext.Fit(p.HeaderLine(width), width)}
	}
	lines := strings.Split(p.View(width, height), "\n")
	if len(lines) > height {
		lines = lines[:height]
	}
	for i, line := range lines {
		lines[i] = termtext.Fit(line, width)
	}
	for len(lines) < height {
		lines = append(lines, "")
	}
	return lines
}

// Compile-time proof that a child's pane is a Pane.
var _ Pane = (*pane.Pane)(nil)
