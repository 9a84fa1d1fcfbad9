package pane

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/ui/todos"
)

// cursor marks every line of the focused pane, so the person sees which
// pane enter, x and s act on.
const cursor = "▌ "

// minDescription is the least room a description keeps when a narrow line
// is cut: past it, the numbers on the right give way instead.
const minDescription = 12

// MaxLines is the most a live pane takes: its header, its task list's
// line and the newest lines of its activity.
const MaxLines = 5

// View draws the pane in at most height lines of width (a width of zero
// or less leaves lines uncut): while it lives, its header, its task
// list's line, its use against its budget and its newest activity; once it ended, its one summary
// line.
func (p *Pane) View(width, height int) string {
	width = p.inner(width)
	if p.state.Finished() {
		return p.focusCursor() + p.summary(width)
	}
	todo := p.todoRows(height)
	budget := p.budgetRows(height - todo)
	var activity []string
	if shown := height - 1 - todo - budget; shown > 0 {
		// Laid out for a full pane (and the root never asks for more), so
		// the layout Want measured is the one drawn: a shorter pane shows
		// its last lines.
		activity = p.activityLines(width, max(height, MaxLines)-1-todo-budget)
		activity = activity[max(len(activity)-shown, 0):]
	}
	var b strings.Builder
	b.WriteString(p.focusCursor() + p.header(width))
	if todo > 0 {
		b.WriteString("\n" + p.focusCursor() + todos.Line(p.todos, p.styles, width))
	}
	if budget > 0 {
		b.WriteString("\n" + p.focusCursor() + p.budgetLine(width))
	}
	for _, line := range activity {
		b.WriteString("\n" + p.focusCursor() + line)
	}
	return b.String()
}

// Want is how many lines the pane would fill at width, MaxLines at most:
// its header, its task list's line and the activity it has. It is
// computed from the activity's lines, which are laid out once per change
// and width and which View draws from, never by drawing the pane.
func (p *Pane) Want(width int) int {
	if p.state.Finished() {
		return 1
	}
	todo := p.todoRows(MaxLines)
	budget := p.budgetRows(MaxLines - todo)
	return 1 + todo + budget + len(p.activityLines(p.inner(width), MaxLines-1-todo-budget))
}

// todoRows is the line the child's task list takes under the header,
// when it has one and height leaves room below the header.
func (p *Pane) todoRows(height int) int {
	if len(p.todos) == 0 || height < 2 {
		return 0
	}
	return 1
}

// HeaderLine is the pane's first line at width, with the focus cursor
// when focused: "⠋ [Explore] find auth code ... 5 tools, 3.2s · step
// 6/15 · 1.2k tok"; a finished pane's is its summary. A fold line, a
// transcript's top and a window of headers draw it.
func (p *Pane) HeaderLine(width int) string {
	inner := p.inner(width)
	if p.state.Finished() {
		return p.focusCursor() + p.summary(inner)
	}
	return p.focusCursor() + p.header(inner)
}

// inner is the width left beside the focus cursor.
func (p *Pane) inner(width int) int {
	if p.focused && width > 0 {
		return max(width-ansi.StringWidth(cursor), 1)
	}
	return width
}

// focusCursor is the focus cursor, or nothing for a pane without focus.
func (p *Pane) focusCursor() string {
	if p.focused {
		return p.styles.Pane.Cursor.Render(cursor)
	}
	return ""
}

// header is the live header within width, drawn again only when what
// it shows changed: every frame draws every live pane's header, and the
// spinner and the clock move slower than frames come.
func (p *Pane) header(width int) string {
	key := headerKey{typ: p.meta.AgentType, desc: p.meta.Description, state: p.state, elapsed: elapsed(p.runTime()), theme: p.styles.Palette.Name,
		tools: p.tools, step: p.step, maxSteps: p.maxSteps, tokens: p.usage.total, width: width, background: p.background,
		warn: p.use().Fraction() >= warnAt, place: p.placement()}
	if p.state == Running {
		key.frame = p.frame
	}
	if p.drawn.line == "" || p.drawn.key != key {
		p.drawn.key, p.drawn.line = key, p.drawHeader(width)
	}
	return p.drawn.line
}

// headerKey is everything a live header is drawn from.
type headerKey struct {
	state                                State
	typ, desc, frame, elapsed, theme     string
	place                                string
	tools, step, maxSteps, tokens, width int
	background, warn                     bool
}

// drawHeader draws the live header within width.
func (p *Pane) drawHeader(width int) string {
	st := &p.styles.Pane
	mark := p.state.style(st).Render(p.state.mark())
	if p.state == Running {
		mark = st.Busy.Render(p.frame)
	}
	var right []string
	switch p.state {
	case AwaitingApproval, Queued:
		right = []string{st.Muted.Render(" ... ") + p.state.style(st).Render(p.state.String())}
	case WaitingForApproval:
		right = []string{st.Muted.Render(" ... "+plural(p.tools, "tool")+", ") + st.Waiting.Render(p.state.String())}
	default:
		right = []string{st.Muted.Render(" ... " + plural(p.tools, "tool") + ", " + elapsed(p.runTime()))}
	}
	if p.state == Running || p.state == WaitingForApproval {
		right = append(right, p.progress()...)
	}
	if p.background {
		right = append(right, st.Muted.Render(" · background"))
	}
	if place := p.placement(); place != "" {
		right = append(right, st.Muted.Render(" · "+place))
	}
	return p.compose(mark, right, "", width)
}

// progress is the step and the tokens so far (" · step 6/15",
// " · 1.2k tok"), each present once known; from 80% of any bound they
// take the limit's colour, as the budget line does.
func (p *Pane) progress() []string {
	var parts []string
	switch {
	case p.step > 0 && p.maxSteps > 0:
		parts = append(parts, fmt.Sprintf(" · step %d/%d", p.step, p.maxSteps))
	case p.step > 0:
		parts = append(parts, fmt.Sprintf(" · step %d", p.step))
	}
	if p.usage.total > 0 {
		parts = append(parts, " · "+tokens(p.usage.total))
	}
	style := p.styles.Pane.Muted
	if p.use().Fraction() >= warnAt {
		style = p.styles.Pane.Limited
	}
	for i := range parts {
		parts[i] = style.Render(parts[i])
	}
	return parts
}

// summary draws the line a finished pane folds to within width: "✓
// [Explore] find auth code - done (8 tools, 5.1s, 3.2k tok, $0.004)",
// with the reason after a colon when there is one.
func (p *Pane) summary(width int) string {
	st := &p.styles.Pane
	style := p.state.style(st)
	// A worktree change ("+42 −7 in 3 files, pending review") says what
	// the person has to do, so it comes before the stats, which give way
	// first when the line is short.
	right := []string{st.Muted.Render(" - ") + style.Render(p.state.String()) + p.changePart()}
	if stats := p.statsLine(); stats != "" {
		right = append(right, st.Muted.Render(" ("+stats+")"))
	}
	if place := p.placement(); place != "" {
		right = append(right, st.Muted.Render(" · "+place))
	}
	reason := ""
	if p.reason != "" {
		reasonStyle := st.Muted
		if p.state == Failed || p.state == TimedOut {
			reasonStyle = style
		}
		reason = st.Muted.Render(": ") + reasonStyle.Render(p.reason)
	}
	return p.compose(style.Render(p.state.mark()), right, reason, width)
}

// statsLine is what the run spent: "8 tools, 5.1s, 3.2k tok, $0.004"; it
// is empty for a child that never ran.
func (p *Pane) statsLine() string {
	d := p.runTime()
	if d <= 0 && p.tools == 0 && p.usage.total == 0 {
		return ""
	}
	parts := []string{plural(p.tools, "tool"), elapsed(d)}
	if p.usage.total > 0 {
		parts = append(parts, tokens(p.usage.total))
	}
	if p.usage.costKnown {
		parts = append(parts, cost(p.usage.cost))
	}
	return strings.Join(parts, ", ")
}

// compose lays out "mark [Type] description", the parts of right, then
// tail. On a narrow line the description gives way first, down to
// minDescription; then right's last parts are dropped whole, so a number
// is never shown cut; what still does not fit (the tail first) is cut at
// the end of the line.
func (p *Pane) compose(mark string, right []string, tail string, width int) string {
	typ := oneLine(p.meta.AgentType)
	if typ == "" {
		typ = "agent"
	}
	left := mark + " " + p.styles.Pane.Muted.Render(fmt.Sprintf("#%d ", p.number)) + p.label.Render("["+typ+"]") + " "
	desc := oneLine(p.meta.Description)
	if width > 0 {
		keep := min(ansi.StringWidth(desc), minDescription)
		room := width - ansi.StringWidth(left) - ansi.StringWidth(strings.Join(right, ""))
		for len(right) > 1 && room < keep {
			room += ansi.StringWidth(right[len(right)-1])
			right = right[:len(right)-1]
		}
		desc = ansi.Truncate(desc, max(room, keep), "…")
	}
	return fit(left+p.styles.Pane.Title.Render(desc)+strings.Join(right, "")+tail, width)
}

// placement says where a child placed off baton's own process runs, and
// how long starting it there took: "container alpine:3 (started in
// 0.8s)". A local child, the default, says nothing here; /subagents info
// names it.
func (p *Pane) placement() string {
	where := oneLine(p.where)
	if where == "" || where == "local" {
		return ""
	}
	if p.startLatency > 0 {
		where += " (started in " + StartLatency(p.startLatency) + ")"
	}
	return where
}

// StartLatency is how long placing a child took, as panes and
// /subagents info write it: "240ms" under a second, "1.3s" above.
func StartLatency(d time.Duration) string {
	if d < time.Second {
		return fmt.Sprintf("%dms", d.Milliseconds())
	}
	return elapsed(d)
}
