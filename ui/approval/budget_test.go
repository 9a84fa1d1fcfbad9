package approval

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/status"
)

// typeText types s into whatever holds the keys.
func typeText(m *Model, s string) {
	for _, r := range s {
		m.Update(press(string(r)))
	}
}

// clearField empties the focused field.
func clearField(m *Model) {
	for range 20 {
		m.Update(tea.KeyMsg{Type: tea.KeyBackspace})
	}
}

// b on a delegation card opens its budget's fields filled with what the
// child would get; the budget beside the estimate follows what is typed,
// tokens priced at the first request's price; a bad field is refused and
// the card stays; enter approves with the edited limits.
func TestBudgetFieldsEditTheChildsLimits(t *testing.T) {
	m, timers := queue(100, 24)
	req := delegation("d1", "Explore", "map")
	req.Delegation.Budget = event.Budget{Tokens: 40000, CostUSD: 0.2}
	req.Delegation.EstimatedCost, req.Delegation.CostKnown = 0.0012, true
	armed(t, m, timers, parent, req)
	if view := ansi.Strip(m.View()); !strings.Contains(view, "first request ~1.2k tokens · $0.0012  budget 40k tokens (~$0.04) · $0.20") ||
		!strings.Contains(view, "b edit budget") {
		t.Fatalf("the card does not show the budget beside the estimate:\n%s", view)
	}
	m.Update(press("b"))
	if !m.Typing() || !m.HoldsKeys(press("y")) {
		t.Fatal("b did not open the budget's fields")
	}
	view := ansi.Strip(m.View())
	for _, want := range []string{"tokens › 40000", "cost $ › 0.2", "steps  › 15", "time s › 120", "budget 40k tokens (~$0.04) · $0.20 · 15 steps · 120s"} {
		if !strings.Contains(view, want) {
			t.Fatalf("fields lack %q:\n%s", want, view)
		}
	}
	clearField(m)
	typeText(m, "10k")
	if view := ansi.Strip(m.View()); !strings.Contains(view, "budget 10k tokens (~$0.01) · $0.20 · 15 steps · 120s") {
		t.Fatalf("the estimate did not follow the tokens typed:\n%s", view)
	}
	m.Update(tea.KeyMsg{Type: tea.KeyTab})
	m.Update(tea.KeyMsg{Type: tea.KeyTab})
	clearField(m)
	typeText(m, "0")
	if m.Update(press("enter")); m.status.Level() != status.Error || !strings.Contains(m.status.Text(), "steps must be") || m.Len() != 1 || !m.Typing() {
		t.Fatalf("zero steps: %q, %d cards", m.status.Text(), m.Len())
	}
	clearField(m)
	typeText(m, "4")
	m.Update(tea.KeyMsg{Type: tea.KeyShiftTab})
	clearField(m)
	run(m.Update(press("enter")))
	got := req.Wait(t.Context())
	want := event.Limits{MaxSteps: 4, Timeout: 120 * time.Second, Budget: event.Budget{Tokens: 10000}}
	if got.Decision != event.Allow || got.EditedLimits == nil || *got.EditedLimits != want || m.Len() != 0 {
		t.Fatalf("answered %+v (limits %+v), want allow with %+v", got, got.EditedLimits, want)
	}
}

// esc in the budget's fields goes back to the card unchanged.
func TestBudgetFieldsEscGoesBack(t *testing.T) {
	m, timers := queue(80, 24)
	req := delegation("d1", "Explore", "map")
	armed(t, m, timers, parent, req)
	m.Update(press("b"))
	typeText(m, "5")
	m.Update(press("esc"))
	if m.Typing() || m.Len() != 1 {
		t.Fatal("esc did not go back to the card")
	}
	run(m.Update(press("y")))
	if got := req.Wait(t.Context()); got.Decision != event.Allow || got.EditedLimits != nil {
		t.Fatalf("y after esc answered %+v", got)
	}
}
