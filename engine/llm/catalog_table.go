package llm

import (
	_ "embed" // the catalogue table
	"strconv"
	"strings"
	"sync"
)

// catwalkTable is catwalk's embedded catalogue reduced to what ModelInfo
// holds, one model a line in catwalk's order: id, context window, input
// and output price per million tokens, and flags ("i" images, "r"
// reasoning), tab-separated. Parsing catwalk's 40 JSON files cost every
// run 6-10 ms and megabytes before its first answer; this table is read
// in place, and only the lines of the model asked for are parsed.
// TestCatalogTableIsCatwalks regenerates it (go generate) and fails when
// it differs from the catwalk version in go.mod.
//
//go:generate go test -run ^TestCatalogTableIsCatwalks$ -update .
//go:embed catalog.tsv
var catwalkTable string

// catwalkAnswers is the table with the answers it has given.
var catwalkAnswers = &tableMemo{table: catwalkTable}

// memoMost bounds the answers a tableMemo keeps: a session asks about a
// handful of models, a model picker about a few hundred; past the bound
// the memo starts again rather than grow with whatever names it is asked.
const memoMost = 1024

// tableMemo answers lookups in a table and keeps the answers. A lookup
// reads the table line by line (all of it for a model it does not list,
// as a local model is), tens of microseconds, and every request asks
// several times (its images, its reasoning, its cost): with 64 children
// starting together that was a fifth of the work of starting them.
type tableMemo struct {
	table string

	mu    sync.Mutex
	found map[string]memoAnswer
}

// memoAnswer is one remembered lookup.
type memoAnswer struct {
	info ModelInfo
	ok   bool
}

// lookup is lookupTable, remembered.
func (m *tableMemo) lookup(model string) (ModelInfo, bool) {
	m.mu.Lock()
	a, seen := m.found[model]
	m.mu.Unlock()
	if seen {
		return a.info, a.ok
	}
	info, ok := lookupTable(m.table, model)
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.found == nil || len(m.found) >= memoMost {
		m.found = map[string]memoAnswer{}
	}
	m.found[model] = memoAnswer{info, ok}
	return info, ok
}

// matchKinds are Lookup's ways of matching a catalogue id, in order.
const (
	matchExact    = iota // the id as asked
	matchFold            // the id in any case
	matchStripped        // the id, the asked-for "provider/" prefix stripped
	matchBare            // the id with its own "provider/" prefix stripped
	matchKinds
)

// lookupTable finds model in table, in one pass. Several providers list
// the same model: for each kind of match, the first priced entry wins, or
// else the first entry (catwalk lists the model makers first).
func lookupTable(table, model string) (ModelInfo, bool) {
	_, rest, prefixed := strings.Cut(model, "/")
	var found [matchKinds]ModelInfo
	var ok [matchKinds]bool
	for line := range strings.Lines(table) {
		id, _, _ := strings.Cut(line, "\t")
		_, bare, idPrefixed := strings.Cut(id, "/")
		// Catalogue ids are ASCII, so a case-insensitive match has the
		// same length: comparing lengths first skips most lines cheaply.
		hits := [matchKinds]bool{
			matchExact:    id == model,
			matchFold:     len(id) == len(model) && strings.EqualFold(id, model),
			matchStripped: prefixed && len(id) == len(rest) && strings.EqualFold(id, rest),
			matchBare:     idPrefixed && len(bare) == len(model) && bare != "" && strings.EqualFold(bare, model),
		}
		for k, hit := range hits {
			if !hit || (ok[k] && found[k].PriceKnown) {
				continue
			}
			if info, valid := parseTableLine(line); valid && (!ok[k] || info.PriceKnown) {
				found[k], ok[k] = info, true
			}
		}
	}
	for k := range found {
		if ok[k] {
			return found[k], true
		}
	}
	return ModelInfo{}, false
}

// parseTableLine reads one line of the table; a malformed line is
// skipped rather than trusted.
func parseTableLine(line string) (ModelInfo, bool) {
	f := strings.Split(strings.TrimSuffix(line, "\n"), "\t")
	if len(f) != 5 {
		return ModelInfo{}, false
	}
	window, err1 := strconv.ParseInt(f[1], 10, 64)
	in, err2 := strconv.ParseFloat(f[2], 64)
	out, err3 := strconv.ParseFloat(f[3], 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return ModelInfo{}, false
	}
	return ModelInfo{
		ID:               f[0],
		ContextWindow:    window,
		InputPerMillion:  in,
		OutputPerMillion: out,
		PriceKnown:       in > 0 || out > 0,
		SupportsImages:   strings.Contains(f[4], "i"),
		CanReason:        strings.Contains(f[4], "r"),
	}, true
}
