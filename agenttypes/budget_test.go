package agenttypes

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// An agent file's budget: sets the child's tokens, cost, steps and time;
// a bad entry is ignored with a warning and the rest still apply. From an
// untrusted project a budget above the person's is refused, one below
// loads.
func TestAgentFileBudget(t *testing.T) {
	tr := newTree(t)
	writeFile(t, filepath.Join(tr.folder("baton"), "frugal.md"),
		"---\nname: frugal\ndescription: x\ntools: Read\nbudget:\n  tokens: 20000\n  cost_usd: 0.1\n  steps: 8\n  time_s: 60\n  depth: 3\n---\nbody\n")
	writeFile(t, filepath.Join(tr.folder("baton"), "lavish.md"),
		"---\nname: lavish\ndescription: x\ntools: Read\nbudget:\n  tokens: 900000\n  cost_usd: 50\n---\nbody\n")
	r := Load(tr.options())
	typ, ok := r.Lookup("frugal")
	if !ok || typ.BudgetTokens != 20000 || typ.BudgetCostUSD != 0.1 || typ.MaxSteps != 8 || typ.Timeout != time.Minute {
		t.Fatalf("frugal = %+v, %v", typ, ok)
	}
	if warned := strings.Join(warningStrings(r), "\n"); !strings.Contains(warned, `budget has no field "depth"`) {
		t.Errorf("warnings lack the unknown field:\n%s", warned)
	}
	opts := tr.options()
	opts.Untrusted = &Untrusted{MaxSteps: 15, Timeout: 2 * time.Minute, Tokens: 40000, CostUSD: 0.5}
	r = Load(opts)
	if _, ok := r.Lookup("frugal"); !ok {
		t.Error("a budget below the person's was refused")
	}
	if _, ok := r.Lookup("lavish"); ok {
		t.Error("a budget above the person's loaded from an untrusted project")
	}
	if warned := strings.Join(warningStrings(r), "\n"); !strings.Contains(warned, "it asks for 900000 tokens (your budget is 40000)") ||
		!strings.Contains(warned, "it asks for $50.00 (your budget is $0.50)") {
		t.Errorf("warnings:\n%s", warned)
	}
}
