package llm

import (
	"flag"
	"os"
	"strconv"
	"strings"
	"testing"

	"charm.land/catwalk/pkg/catwalk"
	"charm.land/catwalk/pkg/embedded"
)

var update = flag.Bool("update", false, "rewrite catalog.tsv from the catwalk version in go.mod")

// tableOf reduces catwalk's providers to catwalkTable's format.
func tableOf(providers []catwalk.Provider) string {
	var b strings.Builder
	for _, p := range providers {
		for _, m := range p.Models {
			if m.ID == "" || strings.ContainsAny(m.ID, "\t\n") {
				continue
			}
			flags := ""
			if m.SupportsImages {
				flags += "i"
			}
			if m.CanReason {
				flags += "r"
			}
			b.WriteString(strings.Join([]string{m.ID, strconv.FormatInt(m.ContextWindow, 10),
				strconv.FormatFloat(m.CostPer1MIn, 'g', -1, 64), strconv.FormatFloat(m.CostPer1MOut, 'g', -1, 64), flags}, "\t"))
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// TestCatalogTableIsCatwalks: the embedded table is exactly what catwalk
// holds, so upgrading catwalk without go generate fails here.
func TestCatalogTableIsCatwalks(t *testing.T) {
	want := tableOf(embedded.GetAll())
	if *update {
		if err := os.WriteFile("catalog.tsv", []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if catwalkTable != want {
		t.Fatal("catalog.tsv differs from catwalk's catalogue: run go generate ./engine/llm")
	}
}

// TestTableLookupAgreesWithCatwalk looks every catwalk id up four ways,
// as a person may spell it, and compares with an index built from
// catwalk's parsed catalogue under the same rules: for each key, the
// first priced entry, else the first.
func TestTableLookupAgreesWithCatwalk(t *testing.T) {
	exact, lower, bare := map[string]ModelInfo{}, map[string]ModelInfo{}, map[string]ModelInfo{}
	set := func(m map[string]ModelInfo, key string, info ModelInfo) {
		if old, ok := m[key]; !ok || (!old.PriceKnown && info.PriceKnown) {
			m[key] = info
		}
	}
	var ids []string
	for _, p := range embedded.GetAll() {
		for _, m := range p.Models {
			info := ModelInfo{ID: m.ID, ContextWindow: m.ContextWindow, InputPerMillion: m.CostPer1MIn,
				OutputPerMillion: m.CostPer1MOut, PriceKnown: m.CostPer1MIn > 0 || m.CostPer1MOut > 0,
				SupportsImages: m.SupportsImages, CanReason: m.CanReason}
			ids = append(ids, m.ID)
			set(exact, m.ID, info)
			l := strings.ToLower(m.ID)
			set(lower, l, info)
			if _, rest, ok := strings.Cut(l, "/"); ok && rest != "" {
				set(bare, rest, info)
			}
		}
	}
	reference := func(model string) (ModelInfo, bool) {
		if info, ok := exact[model]; ok {
			return info, true
		}
		l := strings.ToLower(model)
		if info, ok := lower[l]; ok {
			return info, true
		}
		if _, rest, ok := strings.Cut(l, "/"); ok {
			if info, ok := lower[rest]; ok {
				return info, true
			}
		}
		info, ok := bare[l]
		return info, ok
	}
	if len(ids) < 1000 {
		t.Fatalf("catwalk lists only %d models", len(ids))
	}
	for _, id := range ids {
		_, rest, _ := strings.Cut(id, "/")
		for _, model := range []string{id, strings.ToUpper(id), "proxy/" + id, rest, "no-such-model-" + id} {
			got, gotOK := lookupTable(catwalkTable, model)
			want, wantOK := reference(model)
			if got != want || gotOK != wantOK {
				t.Fatalf("Lookup(%q) = %+v, %v; catwalk says %+v, %v", model, got, gotOK, want, wantOK)
			}
		}
	}
}

// TestMemoAnswersAsTheTable checks the remembered answers against the
// table's own, asked twice over more models than the memo keeps, so its
// answers are checked both fresh, remembered and after it starts again.
func TestMemoAnswersAsTheTable(t *testing.T) {
	m := &tableMemo{table: catwalkTable}
	var models []string
	for line := range strings.Lines(catwalkTable) {
		id, _, _ := strings.Cut(line, "\t")
		models = append(models, id, strings.ToUpper(id), "local-"+id)
	}
	if len(models) <= memoMost {
		t.Fatalf("only %d models: the memo's bound of %d is never reached", len(models), memoMost)
	}
	for round := range 2 {
		for _, model := range models {
			got, gotOK := m.lookup(model)
			want, wantOK := lookupTable(catwalkTable, model)
			if got != want || gotOK != wantOK {
				t.Fatalf("round %d: lookup(%q) = %+v, %v; the table says %+v, %v", round, model, got, gotOK, want, wantOK)
			}
		}
		if len(m.found) > memoMost {
			t.Fatalf("the memo keeps %d answers, more than its bound of %d", len(m.found), memoMost)
		}
	}
}

// BenchmarkCatalogLookup is the cost of one lookup of a model catwalk
// knows and of one it does not (a local model: the whole table is read),
// read from the table and remembered, as Catalog.Lookup answers.
func BenchmarkCatalogLookup(b *testing.B) {
	for _, model := range []string{"gpt-4.1", "my-local-model"} {
		b.Run(model, func(b *testing.B) {
			for b.Loop() {
				lookupTable(catwalkTable, model)
			}
		})
		b.Run(model+"/remembered", func(b *testing.B) {
			c := NewCatalog(nil)
			for b.Loop() {
				c.Lookup(model)
			}
		})
	}
}
