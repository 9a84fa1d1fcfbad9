package config

import (
	"slices"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// A project's budgets only lower the person's until the folder is
// trusted: a higher one, or none where the person set one, is withheld;
// a lower one, or one where the person set none (no bound), applies.
func TestProjectBudgetsOnlyLower(t *testing.T) {
	const user = "[limits]\nchild_tokens = 40000\nchild_cost_usd = 0.5\nturn_tokens = 100000\nturn_cost_usd = 2.0\n"
	for _, tc := range []struct{ key, project string }{
		{"limits.child_tokens", "[limits]\nchild_tokens = 400000"},
		{"limits.child_cost_usd", "[limits]\nchild_cost_usd = 5.0"},
		// A cost of 0 is no bound: wider than any.
		{"limits.child_cost_usd", "[limits]\nchild_cost_usd = 0"},
		{"limits.turn_tokens", "[limits]\nturn_tokens = 1000000"},
		{"limits.turn_cost_usd", "[limits]\nturn_cost_usd = 20"},
	} {
		key := tc.key
		t.Run(tc.project, func(t *testing.T) {
			w := newConfigWorld(t, user, tc.project)
			cfg := w.loadAs(t, false)
			if got := withheldNames(cfg); !slices.Equal(got, []string{key}) {
				t.Errorf("withheld %v, want [%s]", got, key)
			}
			if b := cfg.Limits.ChildBudget; b != (event.Budget{Tokens: 40000, CostUSD: 0.5}) || cfg.Limits.TurnBudget != (event.Budget{Tokens: 100000, CostUSD: 2}) {
				t.Errorf("budgets %+v %+v: the project raised them", b, cfg.Limits.TurnBudget)
			}
			if trusted := w.loadAs(t, true); len(trusted.Withheld) != 0 {
				t.Errorf("trusted: withheld %v", withheldNames(trusted))
			}
		})
	}
	cfg := newConfigWorld(t, user, "[limits]\nchild_tokens = 1000\nchild_cost_usd = 0.1\nturn_tokens = 5000\nturn_cost_usd = 0.2\n").loadAs(t, false)
	if len(cfg.Withheld) != 0 || cfg.Limits.ChildBudget != (event.Budget{Tokens: 1000, CostUSD: 0.1}) || cfg.Limits.TurnBudget != (event.Budget{Tokens: 5000, CostUSD: 0.2}) {
		t.Errorf("lower budgets: withheld %v, child %+v, turn %+v", withheldNames(cfg), cfg.Limits.ChildBudget, cfg.Limits.TurnBudget)
	}
	cfg = newConfigWorld(t, "", "[limits]\nchild_tokens = 1000\n").loadAs(t, false)
	if len(cfg.Withheld) != 0 || cfg.Limits.ChildBudget.Tokens != 1000 {
		t.Errorf("a budget where none was: withheld %v, child %+v", withheldNames(cfg), cfg.Limits.ChildBudget)
	}
}
