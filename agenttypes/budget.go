package agenttypes

import (
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// applyBudget reads budget: a mapping with any of tokens, cost_usd,
// steps and time_s. A bad entry is ignored with a warning; the others
// still apply.
func applyBudget(p *fileParser, t *Type, e entry) error {
	n := deref(e.value)
	if n.Kind != yaml.MappingNode {
		p.warn(e.line, "%s must be a mapping with any of tokens, cost_usd, steps, time_s; ignored", e.key)
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, line := n.Content[i].Value, n.Content[i].Line
		text, _ := scalar(n.Content[i+1])
		f, err := strconv.ParseFloat(strings.TrimSpace(text), 64)
		if err != nil || !(f >= 0) {
			p.warn(line, "%s.%s must be a number, 0 or more; ignored", e.key, key)
			continue
		}
		switch key {
		case "tokens":
			t.BudgetTokens = int(min(f, 1e12))
		case "cost_usd":
			t.BudgetCostUSD = f
		case "steps":
			t.MaxSteps = int(min(f, 1e9))
		case "time_s":
			if f*float64(time.Second) > float64(maxTimeout) {
				p.warn(line, "%s.time_s must be at most %g hours; ignored", e.key, maxTimeout.Hours())
				continue
			}
			t.Timeout = time.Duration(f * float64(time.Second))
		default:
			p.warn(line, "%s has no field %q (it takes tokens, cost_usd, steps, time_s); ignored", e.key, key)
		}
	}
	return nil
}
