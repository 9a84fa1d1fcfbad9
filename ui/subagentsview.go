package ui

import (
	"fmt"
	"strings"
	"time"

	"github.com/seed-e4e525a6/baton/ui/status"

	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/ui/pane"

	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// subagentsList writes every child of the session as a table into the
// conversation.
func (m *Model) subagentsList() {
	if len(m.agents.all) == 0 {
		m.status.Set(status.Info, "no sub-agent has run in this session")
		return
	}
	rows := [][]string{{"ID", "#", "TYPE", "DESCRIPTION", "STATUS", "TOOLS", "TIME", "TOKENS", "COST"}}
	for _, p := range m.agents.all {
		in := p.Info()
		state := in.State.String()
		if p.Background() {
			state += " · background"
		}
		rows = append(rows, []string{
			termtext.Clean(string(in.ID)), fmt.Sprint(in.Number), in.Type, in.Description,
			state, fmt.Sprint(in.Tools), seconds(in.Elapsed), compact(int64(in.Tokens)), costText(in.Cost, in.CostKnown),
		})
	}
	// The ID gives way first (the # names a child as well), then the
	// type; the description keeps the most room; numbers are never cut.
	shrink := []shrinkStep{{col: 0, min: 8}, {col: 2, min: 7}, {col: 3, min: 12}, {col: 0, min: 4}, {col: 3, min: 6}}
	m.conv.add(&tableBlock{title: "Sub-agents", rows: rows, shrink: shrink})
	m.conv.toBottom()
}

// subagentsInfo writes everything known about one child into the
// conversation.
func (m *Model) subagentsInfo(rest string) {
	if len(strings.Fields(rest)) > 1 {
		m.status.Set(status.Error, "/subagents info takes one id or number")
		return
	}
	p, ok := m.child("info", rest)
	if !ok {
		return
	}
	m.conv.add(&note{kind: noteInfo, text: infoText(p.Info())})
	m.conv.toBottom()
}

// infoText lays out one child's facts, a label per line.
func infoText(in pane.Info) string {
	status := in.State.String()
	if in.Reason != "" {
		status += ": " + in.Reason
	}
	limits := fmt.Sprintf("%d steps", in.MaxSteps)
	if in.Timeout > 0 {
		limits += " · " + in.Timeout.String() + " timeout"
	}
	usage := fmt.Sprintf("%s · %d of %d steps · %s tokens (%s in, %s out) · %s",
		plural(in.Tools, "tool call"), in.Steps, in.MaxSteps, compact(int64(in.Tokens)),
		compact(int64(in.PromptTokens)), compact(int64(in.CompletionTokens)), costText(in.Cost, in.CostKnown))
	transcript := in.Transcript
	if transcript == "" {
		transcript = "not recorded"
	}
	rows := [][]string{
		{"status", status},
		{"started", stamp(in.Started)},
		{"ended", stamp(in.Ended)},
		{"elapsed", seconds(in.Elapsed)},
		{"model", orDash(in.Model)},
		{"limits", limits},
		{"usage", usage},
		{"tools", orDash(strings.Join(in.ToolNames, " "))},
		{"sandbox", orDash(in.Sandbox)},
		{"transcript", transcript},
	}
	head := fmt.Sprintf("#%d %s · [%s] %s", in.Number, in.ID, in.Type, in.Description)
	return termtext.Clean(head + "\n" + table(rows))
}

// table aligns rows into columns two spaces apart, measured in cells.
func table(rows [][]string) string {
	return strings.Join(alignRows(rows, columnWidths(rows)), "\n")
}

// columnWidths is the widest cell of each column.
func columnWidths(rows [][]string) []int {
	var widths []int
	for _, row := range rows {
		for i, cell := range row {
			if i == len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], ansi.StringWidth(cell))
		}
	}
	return widths
}

// alignRows pads each cell to its column's width, cutting the cells that
// are wider.
func alignRows(rows [][]string, widths []int) []string {
	out := make([]string, len(rows))
	for r, row := range rows {
		var b strings.Builder
		for i, cell := range row {
			cell = ansi.Truncate(termtext.Clean(cell), widths[i], "…")
			b.WriteString(cell)
			if i < len(row)-1 {
				b.WriteString(strings.Repeat(" ", widths[i]-ansi.StringWidth(cell)+2))
			}
		}
		out[r] = b.String()
	}
	return out
}

// tableBlock is a table in the conversation. It is laid out at the width
// it is drawn at: on a narrow terminal the columns named in shrink give
// up room, in order, so the others stay whole.
type tableBlock struct {
	title  string
	rows   [][]string
	shrink []shrinkStep
}

// shrinkStep narrows column col, down to min cells at most.
type shrinkStep struct{ col, min int }

func (b *tableBlock) render(rc *renderCtx, width int) []string {
	widths := columnWidths(b.rows)
	total := 2 * (len(widths) - 1)
	for _, w := range widths {
		total += w
	}
	for _, step := range b.shrink {
		over := total + 2 - width
		if over <= 0 || step.col >= len(widths) {
			continue
		}
		cut := min(over, max(widths[step.col]-step.min, 0))
		widths[step.col] -= cut
		total -= cut
	}
	st := rc.styles.Conversation
	lines := []string{st.AssistantLabel.Render(b.title)}
	for i, line := range alignRows(b.rows, widths) {
		style := st.Info
		if i == 0 {
			style = st.Info.Bold(true)
		}
		lines = append(lines, fit("  "+style.Render(line), width))
	}
	return lines
}

// seconds writes a duration the way panes do: "5.1s", "2m05s".
func seconds(d time.Duration) string {
	if d < time.Minute {
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
	return d.Truncate(time.Second).String()
}

// costText writes a known cost, or a dash: an unknown price is never
// guessed.
func costText(c float64, known bool) string {
	if !known {
		return "-"
	}
	return fmt.Sprintf("$%.4f", c)
}

// stamp writes a time of day, or a dash for a time that has not come.
func stamp(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.Local().Format("2006-01-02 15:04:05")
}

// orDash is s, or a dash when it is empty.
func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
