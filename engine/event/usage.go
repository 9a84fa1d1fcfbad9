package event

// Usage counts the tokens and cost of one or more model requests.
// CostKnown is false when the model has no price in the catalogue: the
// cost is then unknown, never guessed.
type Usage struct {
	PromptTokens     int     `json:"prompt_tokens"`
	CompletionTokens int     `json:"completion_tokens"`
	TotalTokens      int     `json:"total_tokens"`
	Cost             float64 `json:"cost"`
	CostKnown        bool    `json:"cost_known"`
	Requests         int     `json:"requests"`
}

// Add returns the sum of u and o. The sum's cost is known only while every
// part with tokens had a known cost.
func (u Usage) Add(o Usage) Usage {
	known := u.CostKnown || u.Requests == 0
	if o.Requests > 0 || o.TotalTokens > 0 {
		known = known && o.CostKnown
	}
	return Usage{
		PromptTokens:     u.PromptTokens + o.PromptTokens,
		CompletionTokens: u.CompletionTokens + o.CompletionTokens,
		TotalTokens:      u.TotalTokens + o.TotalTokens,
		Cost:             u.Cost + o.Cost,
		CostKnown:        known,
		Requests:         u.Requests + o.Requests,
	}
}
