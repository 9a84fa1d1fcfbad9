package pane

import (
	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// warnAt is the share of any bound at which the budget line changes
// colour.
const warnAt = 0.8

// budgetRows is the line a running child's use against its budget takes
// under its header, when it has a token or cost budget and height (what
// the task list left) has room below the header.
func (p *Pane) budgetRows(height int) int {
	if p.budget == (event.Budget{}) || height < 2 {
		return 0
	}
	return 1
}

// use is the child's use so far against its budget and limits.
func (p *Pane) use() event.Use {
	u := event.Usage{TotalTokens: p.usage.total, Cost: p.usage.cost, CostKnown: p.usage.costKnown}
	if p.usage.total > 0 {
		u.Requests = 1
	}
	return event.UseOf(event.Stats{Steps: p.step, Duration: p.runTime(), Usage: u}, p.budget, p.maxSteps, p.timeout)
}

// budgetLine is "12.3k/40k tok · $0.04/$0.20 · 7/15 steps · 41s/120s",
// under the header like the activity, in the limit's colour from 80% of
// any bound.
func (p *Pane) budgetLine(width int) string {
	use := p.use()
	style := p.styles.Pane.Muted
	if use.Fraction() >= warnAt {
		style = p.styles.Pane.Limited
	}
	return indent + style.Render(ansi.Truncate(use.Line(), max(width-len(indent), 1), "…"))
}
