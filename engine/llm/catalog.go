package llm

import (
	"strings"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// ModelInfo is what baton needs to know about a model: how much context it
// takes, what it costs, and what it can do.
type ModelInfo struct {
	ID               string
	ContextWindow    int64 // tokens; 0 when unknown
	InputPerMillion  float64
	OutputPerMillion float64
	// PriceKnown is false when nobody priced the model; a zero price is then
	// "unknown", never "free".
	PriceKnown     bool
	SupportsImages bool
	CanReason      bool
}

// Catalog answers model questions from catwalk's offline data (see
// catwalkTable) and the person's overrides (for local endpoints and models
// catwalk lacks). A nil *Catalog answers from catwalk alone.
type Catalog struct {
	overrides *modelIndex
}

// NewCatalog returns a catalogue in which overrides, keyed by model id, win
// over catwalk whole. An override with a non-zero price is priced even when
// PriceKnown is unset; set PriceKnown with zero prices for a free model.
func NewCatalog(overrides map[string]ModelInfo) *Catalog {
	idx := newModelIndex()
	for id, info := range overrides {
		if info.ID == "" {
			info.ID = id
		}
		info.PriceKnown = info.PriceKnown || info.InputPerMillion > 0 || info.OutputPerMillion > 0
		idx.put(id, info)
	}
	return &Catalog{overrides: idx}
}

// Lookup finds a model: by exact id first, then case-insensitively, then
// with a "provider/" prefix stripped (openai/gpt-4.1 finds gpt-4.1) and
// vice versa (gpt-4.1 finds openai/gpt-4.1). Overrides are searched first.
func (c *Catalog) Lookup(model string) (ModelInfo, bool) {
	if c != nil {
		if info, ok := c.overrides.lookup(model); ok {
			return info, true
		}
	}
	return catwalkAnswers.lookup(model)
}

// Cost prices one request's usage. Requests is 1; CostKnown is set only when
// the model has a known price, so totals never include a made-up cost.
func (c *Catalog) Cost(model string, u openai.Usage) event.Usage {
	out := event.Usage{
		PromptTokens:     u.PromptTokens,
		CompletionTokens: u.CompletionTokens,
		TotalTokens:      u.TotalTokens,
		Requests:         1,
	}
	if out.TotalTokens == 0 {
		out.TotalTokens = u.PromptTokens + u.CompletionTokens
	}
	if info, ok := c.Lookup(model); ok && info.PriceKnown {
		out.Cost = (float64(u.PromptTokens)*info.InputPerMillion + float64(u.CompletionTokens)*info.OutputPerMillion) / 1e6
		out.CostKnown = true
	}
	return out
}

// modelIndex holds the overrides under the three keys Lookup tries, in
// the same order as lookupTable.
type modelIndex struct {
	exact map[string]ModelInfo
	lower map[string]ModelInfo // lower-cased id
	bare  map[string]ModelInfo // lower-cased id minus its "provider/" prefix
}

func newModelIndex() *modelIndex {
	return &modelIndex{
		exact: make(map[string]ModelInfo),
		lower: make(map[string]ModelInfo),
		bare:  make(map[string]ModelInfo),
	}
}

// put adds info under id's three keys.
func (x *modelIndex) put(id string, info ModelInfo) {
	x.exact[id] = info
	lower := strings.ToLower(id)
	x.lower[lower] = info
	if _, rest, ok := strings.Cut(lower, "/"); ok && rest != "" {
		x.bare[rest] = info
	}
}

// lookup tries the exact id, the lower-cased id, the id without its prefix,
// and finally prefixed ids whose remainder matches.
func (x *modelIndex) lookup(model string) (ModelInfo, bool) {
	if info, ok := x.exact[model]; ok {
		return info, true
	}
	lower := strings.ToLower(model)
	if info, ok := x.lower[lower]; ok {
		return info, true
	}
	if _, rest, ok := strings.Cut(lower, "/"); ok {
		if info, ok := x.lower[rest]; ok {
			return info, true
		}
	}
	info, ok := x.bare[lower]
	return info, ok
}
