package llm_test

import (
	"maps"
	"math"
	"slices"
	"testing"

	"charm.land/catwalk/pkg/catwalk"
	"charm.land/catwalk/pkg/embedded"
	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm"
)

// catwalkModel returns a provider's entry for id straight from catwalk.
func catwalkModel(t *testing.T, provider catwalk.InferenceProvider, id string) catwalk.Model {
	t.Helper()
	for _, p := range embedded.GetAll() {
		if p.ID != provider {
			continue
		}
		for _, m := range p.Models {
			if m.ID == id {
				return m
			}
		}
	}
	t.Fatalf("catwalk has no %s/%s", provider, id)
	return catwalk.Model{}
}

func TestCatalogPricesMatchCatwalk(t *testing.T) {
	want := catwalkModel(t, catwalk.InferenceProviderOpenAI, "gpt-4.1")
	info, ok := llm.NewCatalog(nil).Lookup("gpt-4.1")
	if !ok || !info.PriceKnown {
		t.Fatalf("Lookup(gpt-4.1) = %+v, %v", info, ok)
	}
	if info.InputPerMillion != want.CostPer1MIn || info.OutputPerMillion != want.CostPer1MOut || info.ContextWindow != want.ContextWindow {
		t.Errorf("got %+v, want catwalk's %+v", info, want)
	}
	u := llm.NewCatalog(nil).Cost("gpt-4.1", openai.Usage{PromptTokens: 100, CompletionTokens: 20, TotalTokens: 120})
	cost := (100*want.CostPer1MIn + 20*want.CostPer1MOut) / 1e6
	if !u.CostKnown || math.Abs(u.Cost-cost) > 1e-12 || u.Requests != 1 || u.TotalTokens != 120 {
		t.Errorf("Cost = %+v, want cost %g known, 1 request", u, cost)
	}
}

func TestCatalogLookup(t *testing.T) {
	c := llm.NewCatalog(map[string]llm.ModelInfo{
		"acme/local-coder": {ContextWindow: 32768},
	})
	cases := []struct{ model, wantID string }{
		{"gpt-4.1", "gpt-4.1"},
		{"GPT-4.1", "gpt-4.1"},
		{"myproxy/gpt-4.1", "gpt-4.1"},
		{"acme/local-coder", "acme/local-coder"},
		{"local-coder", "acme/local-coder"},
		{"LOCAL-CODER", "acme/local-coder"},
	}
	for _, tc := range cases {
		info, ok := c.Lookup(tc.model)
		if !ok || info.ID != tc.wantID {
			t.Errorf("Lookup(%q) = %q, %v; want %q", tc.model, info.ID, ok, tc.wantID)
		}
	}
	if info, ok := c.Lookup("no-such-model-anywhere"); ok {
		t.Errorf("Lookup(unknown) = %+v, want not found", info)
	}
}

func TestCatalogUnknownModelHasNoCost(t *testing.T) {
	var nilCatalog *llm.Catalog
	for _, c := range []*llm.Catalog{llm.NewCatalog(nil), nilCatalog} {
		u := c.Cost("no-such-model-anywhere", openai.Usage{PromptTokens: 10, CompletionTokens: 5})
		want := event.Usage{PromptTokens: 10, CompletionTokens: 5, TotalTokens: 15, Requests: 1}
		if u != want {
			t.Errorf("Cost = %+v, want %+v", u, want)
		}
	}
}

// unpricedModel finds a model catwalk lists only with zero prices.
func unpricedModel(t *testing.T) string {
	t.Helper()
	priced := map[string]bool{}
	for _, p := range embedded.GetAll() {
		for _, m := range p.Models {
			priced[m.ID] = priced[m.ID] || m.CostPer1MIn > 0 || m.CostPer1MOut > 0
		}
	}
	for _, id := range slices.Sorted(maps.Keys(priced)) {
		if !priced[id] {
			return id
		}
	}
	t.Skip("catwalk lists no unpriced model")
	return ""
}

func TestCatalogZeroPriceIsUnknownUnlessOverridden(t *testing.T) {
	id := unpricedModel(t)
	usage := openai.Usage{PromptTokens: 1000, CompletionTokens: 1000}
	if u := llm.NewCatalog(nil).Cost(id, usage); u.CostKnown {
		t.Errorf("catwalk's zero price for %s counted as known: %+v", id, u)
	}
	free := llm.NewCatalog(map[string]llm.ModelInfo{id: {PriceKnown: true}})
	if u := free.Cost(id, usage); !u.CostKnown || u.Cost != 0 {
		t.Errorf("override to free: Cost = %+v, want known 0", u)
	}
}

func TestCatalogOverrideWins(t *testing.T) {
	c := llm.NewCatalog(map[string]llm.ModelInfo{
		"gpt-4.1": {ContextWindow: 8192, InputPerMillion: 1, OutputPerMillion: 3},
	})
	for _, model := range []string{"gpt-4.1", "openai/gpt-4.1"} {
		info, ok := c.Lookup(model)
		if !ok || info.ContextWindow != 8192 || !info.PriceKnown {
			t.Errorf("Lookup(%q) = %+v, want the override", model, info)
		}
	}
	u := c.Cost("gpt-4.1", openai.Usage{PromptTokens: 1_000_000, CompletionTokens: 1_000_000})
	if !u.CostKnown || u.Cost != 4 {
		t.Errorf("Cost = %+v, want 4 from the override's prices", u)
	}
}
