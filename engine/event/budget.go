package event

import (
	"fmt"
	"strings"
	"time"
)

// Budget is what a run may spend beyond its step limit and timeout
// (which every agent has): tokens and cost. Zero is no bound.
type Budget struct {
	Tokens  int     `json:"tokens,omitempty"`
	CostUSD float64 `json:"cost_usd,omitempty"`
}

// Lower returns b with each bound of o that is tighter; a zero bound in
// o leaves b's.
func (b Budget) Lower(o Budget) Budget {
	if o.Tokens > 0 && (b.Tokens == 0 || o.Tokens < b.Tokens) {
		b.Tokens = o.Tokens
	}
	if o.CostUSD > 0 && (b.CostUSD == 0 || o.CostUSD < b.CostUSD) {
		b.CostUSD = o.CostUSD
	}
	return b
}

// Spent says which bound usage has reached, with the figures, or "".
func (b Budget) Spent(u Usage) string {
	switch {
	case b.Tokens > 0 && u.TotalTokens >= b.Tokens:
		return fmt.Sprintf("token budget reached: %s of %s tokens", short(u.TotalTokens), short(b.Tokens))
	case b.CostUSD > 0 && u.CostKnown && u.Cost >= b.CostUSD:
		return fmt.Sprintf("cost budget reached: $%.2f of $%.2f", u.Cost, b.CostUSD)
	}
	return ""
}

// Use is a run's use against its budget and limits, as results carry it.
type Use struct {
	Tokens      int     `json:"tokens"`
	TokensMax   int     `json:"tokens_max,omitempty"`
	CostUSD     float64 `json:"cost_usd"`
	CostUSDMax  float64 `json:"cost_usd_max,omitempty"`
	Steps       int     `json:"steps"`
	StepsMax    int     `json:"steps_max,omitempty"`
	TimeS       float64 `json:"time_s"`
	TimeSMax    float64 `json:"time_s_max,omitempty"`
	CostUnknown bool    `json:"cost_unknown,omitempty"`
}

// UseOf is stats against a budget, a step limit and a timeout.
func UseOf(s Stats, b Budget, maxSteps int, timeout time.Duration) Use {
	return Use{Tokens: s.Usage.TotalTokens, TokensMax: b.Tokens, CostUSD: s.Usage.Cost, CostUSDMax: b.CostUSD,
		Steps: s.Steps, StepsMax: maxSteps, TimeS: s.Duration.Seconds(), TimeSMax: timeout.Seconds(),
		CostUnknown: s.Usage.Requests > 0 && !s.Usage.CostKnown}
}

// Line is the use as a pane shows it:
// "12.3k/40k tok · $0.04/$0.20 · 7/15 steps · 41s/120s".
func (u Use) Line() string {
	var parts []string
	tok := short(u.Tokens)
	if u.TokensMax > 0 {
		tok += "/" + short(u.TokensMax)
	}
	parts = append(parts, tok+" tok")
	if !u.CostUnknown || u.CostUSDMax > 0 {
		cost := fmt.Sprintf("$%.2f", u.CostUSD)
		if u.CostUnknown {
			cost = "$?"
		}
		if u.CostUSDMax > 0 {
			cost += fmt.Sprintf("/$%.2f", u.CostUSDMax)
		}
		parts = append(parts, cost)
	}
	steps := fmt.Sprint(u.Steps)
	if u.StepsMax > 0 {
		steps += fmt.Sprintf("/%d", u.StepsMax)
	}
	parts = append(parts, steps+" steps")
	secs := fmt.Sprintf("%ds", int(u.TimeS))
	if u.TimeSMax > 0 {
		secs += fmt.Sprintf("/%ds", int(u.TimeSMax))
	}
	parts = append(parts, secs)
	return strings.Join(parts, " · ")
}

// Fraction is the largest share of any bound used, for a warning colour.
func (u Use) Fraction() float64 {
	var f float64
	share := func(used, max float64) {
		if max > 0 && used/max > f {
			f = used / max
		}
	}
	share(float64(u.Tokens), float64(u.TokensMax))
	share(u.CostUSD, u.CostUSDMax)
	share(float64(u.Steps), float64(u.StepsMax))
	share(u.TimeS, u.TimeSMax)
	return f
}

// PersonNote is how a model is told what the person did, in one form
// wherever it is told: "[person: wound down the sub-agent after 41s]".
// It reads what happened instead of guessing from a bare status.
func PersonNote(what string) string { return "[person: " + what + "]" }

// Limits are everything that bounds a child: its steps, its time and its
// budget, as the person edits them on its card.
type Limits struct {
	MaxSteps int           `json:"max_steps"`
	Timeout  time.Duration `json:"timeout"`
	Budget   Budget        `json:"budget"`
}

// Line is the limits as a card and a note write them:
// "40k tokens · $0.20 · 15 steps · 120s".
func (l Limits) Line() string {
	parts := []string{Plural(l.MaxSteps, "step"), fmt.Sprintf("%ds", int(l.Timeout.Seconds()))}
	if b := l.Budget.Parts(); len(b) > 0 {
		parts = append(b, parts...)
	}
	return strings.Join(parts, " · ")
}

// Parts are the bounds of a budget as a card writes them, those set
// only: "40k tokens", "$0.20".
func (b Budget) Parts() []string {
	var parts []string
	if b.Tokens > 0 {
		parts = append(parts, short(b.Tokens)+" tokens")
	}
	if b.CostUSD > 0 {
		parts = append(parts, fmt.Sprintf("$%.2f", b.CostUSD))
	}
	return parts
}

// short is a token count as a budget writes it: "12.3k", "40k".
func short(n int) string {
	c := Compact(int64(n))
	for _, unit := range []string{"k", "M"} {
		c = strings.Replace(c, ".0"+unit, unit, 1)
	}
	return c
}
