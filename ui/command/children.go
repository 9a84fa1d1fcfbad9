package command

import (
	"fmt"
	"strings"
	"time"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/pane"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// Subagents is /subagents' table: every child of the session, the number
// /subagents takes, its state, tools, time, tokens and cost.
func Subagents(children []*pane.Pane) Table {
	rows := [][]string{{"ID", "#", "TYPE", "DESCRIPTION", "STATUS", "TOOLS", "TIME", "TOKENS", "COST"}}
	for _, p := range children {
		in := p.Info()
		state := in.State.String()
		if p.Background() {
			state += " · background"
		}
		rows = append(rows, []string{
			termtext.Clean(string(in.ID)), fmt.Sprint(in.Number), in.Type, in.Description,
			state, fmt.Sprint(in.Tools), seconds(in.Elapsed), event.Compact(int64(in.Tokens)), costText(in.Cost, in.CostKnown),
		})
	}
	// The ID is what people type, so it is never cut; nor are numbers.
	// The description gives way first, then the type (the id names it
	// too), then the columns that matter least: cost, time, tools, tokens.
	const typ, desc, tools, elapsed, tokens, cost = 2, 3, 5, 6, 7, 8
	shrink := []ShrinkStep{{Col: desc, Min: 16}, {Col: typ, Min: 7}, {Col: typ, Drop: true}, {Col: desc, Min: 12},
		{Col: cost, Drop: true}, {Col: elapsed, Drop: true}, {Col: tools, Drop: true}, {Col: desc, Min: 6}, {Col: tokens, Drop: true}}
	return Table{Title: "Sub-agents", Rows: rows, Shrink: shrink}
}

// ChildInfo is /subagents info: one child's facts, a label per line,
// cleaned.
func ChildInfo(in pane.Info) string {
	status := in.State.String()
	if in.Reason != "" {
		status += ": " + in.Reason
	}
	limits := fmt.Sprintf("%d steps", in.MaxSteps)
	if in.Timeout > 0 {
		limits += " · " + in.Timeout.String() + " timeout"
	}
	usage := fmt.Sprintf("%s · %d of %d steps · %s tokens (%s in, %s out) · %s",
		event.Plural(in.Tools, "tool call"), in.Steps, in.MaxSteps, event.Compact(int64(in.Tokens)),
		event.Compact(int64(in.PromptTokens)), event.Compact(int64(in.CompletionTokens)), costText(in.Cost, in.CostKnown))
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
		{"runs", runsIn(in)},
		{"transcript", transcript},
	}
	head := fmt.Sprintf("#%d %s · [%s] %s", in.Number, in.ID, in.Type, in.Description)
	return termtext.Clean(head + "\n" + align(rows))
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

// runsIn says where the child runs and how long starting it there took:
// "container alpine:3 · started in 820ms", "local".
func runsIn(in pane.Info) string {
	if in.Where == "" {
		return "-"
	}
	if in.StartLatency > 0 {
		return in.Where + " · started in " + pane.StartLatency(in.StartLatency)
	}
	return in.Where
}
