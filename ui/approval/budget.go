package approval

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/themes"
	"github.com/seed-e4e525a6/baton/ui/input"
)

// A delegation's budget is the person's to set: b on its card opens one
// field per bound (tokens, cost, steps, time), filled with what the child
// would get; enter approves it with what the fields say, and the engine
// tells the parent the budget changed. While the fields are open the
// card's facts show the budget as typed and what it lets the child
// spend, recomputed on every key.

// budget fields, in the order tab moves through them.
const (
	fieldTokens = iota
	fieldCost
	fieldSteps
	fieldTime
	fieldCount
)

// budgetForm is the open fields of the active card's budget.
type budgetForm struct {
	fields [fieldCount]*input.Line
	focus  int
}

// newBudgetForm makes the four fields, empty.
func newBudgetForm() *budgetForm {
	f := &budgetForm{}
	f.fields[fieldTokens] = input.NewLine("tokens", "no bound")
	f.fields[fieldCost] = input.NewLine("cost $", "no bound")
	f.fields[fieldSteps] = input.NewLine("steps ", "")
	f.fields[fieldTime] = input.NewLine("time s", "")
	return f
}

// setStyles restyles the fields.
func (f *budgetForm) setStyles(styles *themes.Styles) {
	for _, l := range f.fields {
		l.SetStyles(styles)
	}
}

// setSize fits the fields in width.
func (f *budgetForm) setSize(width int) {
	for _, l := range f.fields {
		l.SetSize(width)
	}
}

// open fills the fields with d's limits and focuses the first.
func (f *budgetForm) open(d *event.DelegationPreview) {
	values := [fieldCount]string{"", "", strconv.Itoa(d.MaxSteps), strconv.Itoa(int(d.Timeout / time.Second))}
	if d.Budget.Tokens > 0 {
		values[fieldTokens] = strconv.Itoa(d.Budget.Tokens)
	}
	if d.Budget.CostUSD > 0 {
		values[fieldCost] = strconv.FormatFloat(d.Budget.CostUSD, 'f', -1, 64)
	}
	for i, l := range f.fields {
		l.Open(values[i])
		l.Blur()
	}
	f.focus = 0
	f.fields[0].Focus()
}

// close takes the keys from every field.
func (f *budgetForm) close() {
	for _, l := range f.fields {
		l.Blur()
	}
}

// move gives the focus to the field delta away, round again at the ends.
func (f *budgetForm) move(delta int) {
	f.fields[f.focus].Blur()
	f.focus = ((f.focus+delta)%fieldCount + fieldCount) % fieldCount
	f.fields[f.focus].Focus()
}

// limits reads the fields: an empty tokens or cost field is no bound;
// steps and time must be above zero and within what a card may give.
func (f *budgetForm) limits() (event.Limits, error) {
	value := func(i int) string { return strings.TrimSpace(f.fields[i].Value()) }
	var l event.Limits
	var err error
	if l.Budget.Tokens, err = parseTokens(value(fieldTokens)); err != nil {
		return l, err
	}
	if l.Budget.CostUSD, err = parseCost(value(fieldCost)); err != nil {
		return l, err
	}
	steps, err := strconv.Atoi(value(fieldSteps))
	if err != nil || steps <= 0 || steps > maxSteps {
		return l, fmt.Errorf("steps must be a whole number from 1 to %d", maxSteps)
	}
	l.MaxSteps = steps
	secs, err := strconv.ParseFloat(value(fieldTime), 64)
	if err != nil || !(secs >= 1) || secs > maxTimeS {
		return l, fmt.Errorf("time must be a number of seconds from 1 to %d", maxTimeS)
	}
	l.Timeout = time.Duration(secs * float64(time.Second))
	return l, nil
}

// maxSteps and maxTimeS bound what the fields take, as the engine bounds
// what a card gives a child.
const (
	maxSteps = 1000
	maxTimeS = 24 * 60 * 60
)

// parseTokens reads a token bound: "", "0" (no bound), "40000", "40k",
// "1.5M".
func parseTokens(s string) (int, error) {
	if s == "" {
		return 0, nil
	}
	mult := 1.0
	switch {
	case strings.HasSuffix(strings.ToLower(s), "k"):
		mult, s = 1e3, s[:len(s)-1]
	case strings.HasSuffix(strings.ToLower(s), "m"):
		mult, s = 1e6, s[:len(s)-1]
	}
	n, err := strconv.ParseFloat(strings.ReplaceAll(s, "_", ""), 64)
	if err != nil || !(n >= 0) || n*mult > math.MaxInt32 {
		return 0, fmt.Errorf("tokens must be a count such as 40000 or 40k, or empty for no bound")
	}
	return int(n * mult), nil
}

// parseCost reads a cost bound in dollars: "", "0" (no bound), "0.2",
// "$0.20".
func parseCost(s string) (float64, error) {
	if s == "" {
		return 0, nil
	}
	n, err := strconv.ParseFloat(strings.TrimPrefix(s, "$"), 64)
	if err != nil || !(n >= 0) || math.IsInf(n, 0) {
		return 0, fmt.Errorf("cost must be dollars such as 0.20, or empty for no bound")
	}
	return n, nil
}

// budgetKey edits the budget fields: tab and the arrows move between
// them, enter approves the delegation with them, esc goes back to the
// card unchanged.
func (m *Model) budgetKey(msg tea.KeyMsg) (tea.Cmd, outcome) {
	switch {
	case key.Matches(msg, m.lineKeys.Confirm) && !msg.Paste:
		l, err := m.budget.limits()
		if err != nil {
			return nil, outcome{said: "budget: " + err.Error() + "; esc goes back to the card", failed: true}
		}
		return m.answer(event.Answer{Decision: event.Allow, EditedLimits: &l})
	case key.Matches(msg, m.lineKeys.Cancel):
		m.close()
		return nil, outcome{}
	case key.Matches(msg, m.keys.NextField):
		m.budget.move(1)
		return nil, outcome{}
	case key.Matches(msg, m.keys.PrevField):
		m.budget.move(-1)
		return nil, outcome{}
	}
	return m.budget.fields[m.budget.focus].Update(msg), outcome{}
}

// budgetLines are the open fields, then the limits as typed beside the
// first request's estimate, recomputed on every key.
func (m *Model) budgetLines(d *event.DelegationPreview) []string {
	lines := make([]string, 0, fieldCount+1)
	for _, l := range m.budget.fields {
		lines = append(lines, l.View())
	}
	st := m.styles.Card
	l, err := m.budget.limits()
	if err != nil {
		return append(lines, st.Label.Render(err.Error()))
	}
	limits := event.Limits{MaxSteps: l.MaxSteps, Timeout: l.Timeout}.Line()
	if b := budgetWords(d, l.Budget); b != "" {
		limits = b + " · " + limits
	}
	return append(lines, st.Label.Render("budget ")+st.Body.Render(limits)+"  "+st.Label.Render("first request ")+st.Body.Render(estimate(d)))
}

// estimate is a delegation's first request: "~1.2k tokens · $0.0016".
func estimate(d *event.DelegationPreview) string {
	s := fmt.Sprintf("~%s tokens", event.Compact(int64(d.EstimatedTokens)))
	if d.CostKnown {
		s += fmt.Sprintf(" · $%.4f", d.EstimatedCost)
	}
	return s
}

// budgetWords is a token and cost budget as a card shows it beside the
// estimate, the tokens priced at the first request's price:
// "40k tokens (~$0.05) · $0.20"; "" without either bound.
func budgetWords(d *event.DelegationPreview, b event.Budget) string {
	parts := b.Parts()
	if b.Tokens > 0 && d.CostKnown && d.EstimatedTokens > 0 {
		parts[0] += fmt.Sprintf(" (~$%.2f)", float64(b.Tokens)*d.EstimatedCost/float64(d.EstimatedTokens))
	}
	return strings.Join(parts, " · ")
}
