package pane

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// A child with a budget shows its use against it under its header, and
// the line takes the limit's colour from 80% of any bound.
func TestPaneShowsUseAgainstBudget(t *testing.T) {
	p := newPane()
	play(p, started()[:2])
	p.Apply(event.AgentStarted{Meta: at(time.Second), Model: "m", MaxSteps: 15, Timeout: 120 * time.Second,
		Budget: event.Budget{Tokens: 40000, CostUSD: 0.2}})
	p.Apply(event.StepStarted{Meta: at(2 * time.Second), Step: 7, Max: 15})
	p.Apply(event.UsageReported{Meta: at(2 * time.Second), Total: event.Usage{TotalTokens: 12300, Cost: 0.04, CostKnown: true, Requests: 7}})
	p.SetNow(t0.Add(42 * time.Second))
	view := ansi.Strip(p.View(100, MaxLines))
	if !strings.Contains(view, "12.3k/40k tok · $0.04/$0.20 · 7/15 steps · 41s/120s") {
		t.Fatalf("no budget line:\n%s", view)
	}
	old := lipgloss.ColorProfile()
	lipgloss.SetColorProfile(termenv.TrueColor)
	t.Cleanup(func() { lipgloss.SetColorProfile(old) })
	calm := p.budgetLine(100)
	if !strings.HasPrefix(calm, indent) {
		t.Fatalf("the budget line is not indented like the activity under the header: %q", calm)
	}
	calm = strings.TrimPrefix(calm, indent)
	if calm != p.styles.Pane.Muted.Render(ansi.Strip(calm)) {
		t.Fatalf("below 80%% the line is not muted: %q", calm)
	}
	p.Apply(event.UsageReported{Meta: at(3 * time.Second), Total: event.Usage{TotalTokens: 32000, Cost: 0.04, CostKnown: true, Requests: 8}})
	if warm := strings.TrimPrefix(p.budgetLine(100), indent); warm != p.styles.Pane.Limited.Render(ansi.Strip(warm)) || warm == p.styles.Pane.Muted.Render(ansi.Strip(warm)) {
		t.Fatalf("at 80%% the line keeps its colour: %q", warm)
	}
	if got := p.Want(100); got != 2 {
		t.Fatalf("Want(100) = %d, want the header and the budget line", got)
	}
}

// The header's step figure takes the limit's colour from 80% of the
// steps, with or without a token budget.
func TestHeaderFigureWarnsAt80Percent(t *testing.T) {
	old := lipgloss.ColorProfile()
	lipgloss.SetColorProfile(termenv.TrueColor)
	t.Cleanup(func() { lipgloss.SetColorProfile(old) })
	p := newPane()
	play(p, started()[:2])
	p.Apply(event.AgentStarted{Meta: at(time.Second), Model: "m", MaxSteps: 15, Timeout: 120 * time.Second})
	p.Apply(event.StepStarted{Meta: at(2 * time.Second), Step: 11, Max: 15})
	p.SetNow(t0.Add(3 * time.Second))
	if calm := p.HeaderLine(100); !strings.Contains(calm, p.styles.Pane.Muted.Render(" · step 11/15")) {
		t.Fatalf("below 80%% the step is not muted: %q", calm)
	}
	p.Apply(event.StepStarted{Meta: at(3 * time.Second), Step: 12, Max: 15})
	if warm := p.HeaderLine(100); !strings.Contains(warm, p.styles.Pane.Limited.Render(" · step 12/15")) {
		t.Fatalf("at 80%% the step keeps its colour: %q", warm)
	}
}
