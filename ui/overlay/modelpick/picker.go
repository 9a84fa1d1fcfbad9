// Package modelpick is the /model picker: the endpoint's models with what
// the catalogue knows of each (context window, price, vision, reasoning),
// filtered as the person types, chosen with enter: a pick.Picker over
// the models.
package modelpick

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/themes"
	"github.com/seed-e4e525a6/baton/ui/overlay/pick"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// Model is one row of the picker: a model the endpoint serves and what
// the catalogue says of it (zero values when it knows nothing).
type Model struct {
	ID               string
	ContextWindow    int64
	InputPerMillion  float64
	OutputPerMillion float64
	PriceKnown       bool
	Vision           bool
	Reasoning        bool
}

// New opens the picker over models (their ids cleaned here, once), with
// the cursor on current when it is listed; enter on a model runs choose
// with its id.
func New(models []Model, current string, styles *themes.Styles, choose func(id string) tea.Cmd) *pick.Picker {
	rows := make([]pick.Row, 0, len(models))
	for _, m := range models {
		m.ID = termtext.Clean(m.ID)
		rows = append(rows, pick.Row{ID: m.ID, Draw: func(styles *themes.Styles, selected bool) string { return row(styles, m, selected) }})
	}
	return pick.New(rows, styles, pick.Options{Title: "Switch model", Verb: "switch", Current: current, Marks: "current", Noun: "model", Choose: choose})
}

// row draws one model: its id and its facts.
func row(styles *themes.Styles, m Model, selected bool) string {
	st := styles.Completion
	name := st.Item.Render(m.ID)
	if selected {
		name = st.Selected.Render(m.ID)
	}
	facts := Facts(m)
	if facts == "" {
		return name
	}
	return name + "  " + st.Desc.Render(facts)
}

// Facts is what the catalogue knows of m, e.g. "128k ctx · $2.00/$8.00
// per Mtok · vision · reasoning"; "" when it knows nothing.
func Facts(m Model) string {
	var parts []string
	if m.ContextWindow > 0 {
		parts = append(parts, contextSize(m.ContextWindow)+" ctx")
	}
	if m.PriceKnown {
		parts = append(parts, fmt.Sprintf("$%.2f/$%.2f per Mtok", m.InputPerMillion, m.OutputPerMillion))
	}
	if m.Vision {
		parts = append(parts, "vision")
	}
	if m.Reasoning {
		parts = append(parts, "reasoning")
	}
	return strings.Join(parts, " · ")
}

// contextSize writes a window the short way: "128k", "1M", "1.5M".
func contextSize(n int64) string {
	switch {
	case n >= 1_000_000 && n%1_000_000 == 0:
		return fmt.Sprintf("%dM", n/1_000_000)
	case n >= 1_000_000:
		return fmt.Sprintf("%.1fM", float64(n)/1_000_000)
	case n >= 1000:
		return fmt.Sprintf("%dk", n/1000)
	}
	return fmt.Sprint(n)
}
