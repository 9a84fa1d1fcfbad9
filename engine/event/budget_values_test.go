package event

import (
	"testing"
	"time"
)

// A budget lowers to the tighter of each bound (zero is none), says
// which bound a run reached, and reads as a card and a pane write it.
func TestBudgetWords(t *testing.T) {
	b := Budget{Tokens: 40_000, CostUSD: 0.5}.Lower(Budget{Tokens: 12_000}).Lower(Budget{CostUSD: 0.2}).Lower(Budget{})
	if b != (Budget{Tokens: 12_000, CostUSD: 0.2}) {
		t.Errorf("lowered to %+v", b)
	}
	if got := (Budget{}).Lower(Budget{Tokens: 5}); got.Tokens != 5 {
		t.Errorf("no bound lowered to %+v", got)
	}
	for u, want := range map[Usage]string{
		{TotalTokens: 12_300}:                           "token budget reached: 12.3k of 12k tokens",
		{TotalTokens: 100, Cost: 0.25, CostKnown: true}: "cost budget reached: $0.25 of $0.20",
		{TotalTokens: 100, Cost: 0.25}:                  "",
		{TotalTokens: 100, Cost: 0.1, CostKnown: true}:  "",
	} {
		if got := b.Spent(u); got != want {
			t.Errorf("Spent(%+v) = %q, want %q", u, got, want)
		}
	}
	l := Limits{MaxSteps: 15, Timeout: 2 * time.Minute, Budget: Budget{Tokens: 40_000, CostUSD: 0.2}}
	if got := l.Line(); got != "40k tokens · $0.20 · 15 steps · 120s" {
		t.Errorf("limits %q", got)
	}
	if got := (Limits{MaxSteps: 1, Timeout: time.Second}).Line(); got != "1 step · 1s" {
		t.Errorf("limits without a budget %q", got)
	}
	if PersonNote("wound down the sub-agent after 41s") != "[person: wound down the sub-agent after 41s]" {
		t.Error("a person's note")
	}
	if StatusBudgetExceeded.Word() != "over budget" {
		t.Error("over budget")
	}
}

// A run's use against its bounds reads as a pane shows it, an unknown
// cost as $? only where a cost bound needs one, and its largest share of
// any bound is its warning.
func TestUseLineAndFraction(t *testing.T) {
	s := Stats{Steps: 7, Duration: 41 * time.Second, Usage: Usage{TotalTokens: 12_300, Cost: 0.04, CostKnown: true, Requests: 7}}
	u := UseOf(s, Budget{Tokens: 40_000, CostUSD: 0.2}, 15, 2*time.Minute)
	if got := u.Line(); got != "12.3k/40k tok · $0.04/$0.20 · 7/15 steps · 41s/120s" {
		t.Errorf("use %q", got)
	}
	if f := u.Fraction(); f < 0.46 || f > 0.47 {
		t.Errorf("fraction %v, want the steps' 7/15", f)
	}
	s.Usage.CostKnown = false
	if got := UseOf(s, Budget{}, 0, 0).Line(); got != "12.3k tok · 7 steps · 41s" {
		t.Errorf("unknown cost, no bounds: %q", got)
	}
	if got := UseOf(s, Budget{CostUSD: 1}, 0, 0).Line(); got != "12.3k tok · $?/$1.00 · 7 steps · 41s" {
		t.Errorf("unknown cost under a cost bound: %q", got)
	}
	if (Use{}).Fraction() != 0 {
		t.Error("no bounds, yet a share")
	}
}

// A fan-in passed only when its verification did, and a file overlaps
// when more than one change touches it.
func TestFanInStates(t *testing.T) {
	if (FanIn{}).Verified() || !(FanIn{Verify: &Verification{Passed: true}}).Verified() || (FanIn{Verify: &Verification{Exit: 1}}).Verified() {
		t.Error("Verified")
	}
	if (FanInFile{By: []AgentID{"a"}}).Overlap() || !(FanInFile{By: []AgentID{"a", "b"}}).Overlap() {
		t.Error("Overlap")
	}
}
