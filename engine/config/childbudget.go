package config

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/event"
)

// ChildBudget is what --child-budget sets: any of a child's tokens,
// cost, steps and time; zero fields are not set. It is the command
// line's layer, so it may raise what the files set, up to the maxima.
type ChildBudget struct {
	budget event.Budget
	steps  int
	time   time.Duration
}

// ParseChildBudget reads --child-budget values such as
// "tokens=40000,cost=0.2,steps=15,time=120", comma-separated or repeated.
func ParseChildBudget(values []string) (*ChildBudget, error) {
	var b ChildBudget
	for _, value := range values {
		for _, part := range strings.Split(value, ",") {
			key, text, ok := strings.Cut(strings.TrimSpace(part), "=")
			if !ok {
				return nil, fmt.Errorf("--child-budget: expected KEY=VALUE (tokens, cost, steps, time), got %q", part)
			}
			n, err := strconv.ParseFloat(strings.TrimSpace(text), 64)
			if err != nil || !(n > 0) || math.IsInf(n, 0) {
				return nil, fmt.Errorf("--child-budget: %s must be a positive number, got %q", key, text)
			}
			m := engine.MaxLimits
			switch strings.TrimSpace(key) {
			case "tokens":
				b.budget.Tokens = int(min(n, math.MaxInt32))
			case "cost", "cost_usd":
				b.budget.CostUSD = n
			case "steps":
				if n > float64(m.ChildStepsWrite) {
					return nil, fmt.Errorf("--child-budget: steps must be at most %d, got %g", m.ChildStepsWrite, n)
				}
				b.steps = int(n)
			case "time", "time_s":
				if n*float64(time.Second) > float64(m.ChildTimeout) {
					return nil, fmt.Errorf("--child-budget: time must be at most %d seconds, got %g", int(m.ChildTimeout/time.Second), n)
				}
				b.time = time.Duration(n * float64(time.Second))
			default:
				return nil, fmt.Errorf("--child-budget: unknown key %q (tokens, cost, steps, time)", key)
			}
		}
	}
	return &b, nil
}

// apply sets the budget the flag gives on the limits, over the config.
func (b ChildBudget) apply(l *engine.Limits) {
	if b.budget.Tokens > 0 {
		l.ChildBudget.Tokens = b.budget.Tokens
	}
	if b.budget.CostUSD > 0 {
		l.ChildBudget.CostUSD = b.budget.CostUSD
	}
	if b.steps > 0 {
		l.ChildStepsReadOnly, l.ChildStepsWrite = b.steps, b.steps
	}
	if b.time > 0 {
		l.ChildTimeout = b.time
	}
}
