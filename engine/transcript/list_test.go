package transcript

import (
	"encoding/json"
	"testing"
	"time"
)

func TestListSummarisesSessions(t *testing.T) {
	store := NewStore(t.TempDir(), nil)
	workspace := t.TempDir()
	if sums, err := store.List(workspace); err != nil || len(sums) != 0 {
		t.Fatalf("list of a new workspace = %v, %v; want empty", sums, err)
	}
	// A session started an hour ago in which nothing was written.
	empty, err := store.Create(workspace, time.Now().Add(-time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	setAge(t, empty.Path(), time.Hour)
	first, err := store.Create(workspace, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	w := writer(t, first, MainAgent)
	appendAll(t, w, KindMeta, MainAgent, Meta{Workspace: workspace, Model: "gpt-4.1"})
	writeTurn(t, w, "find the auth code", usage{TotalTokens: 1200, Cost: 0.01, CostKnown: true})
	writeTurn(t, w, "now plan it", usage{TotalTokens: 800, Cost: 0.005, CostKnown: true})
	// A child's events live in its own file and do not count as turns.
	writeTurn(t, writer(t, first, "explore-1"), "child", usage{TotalTokens: 999})
	// A turn cut short by a crash: started, never ended.
	appendAll(t, w, KindEvent, MainAgent, event{Type: "turn_started", Prompt: "interrupted"})

	second, err := store.Create(workspace, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	w2 := writer(t, second, MainAgent)
	writeTurn(t, w2, "explain main.go", usage{TotalTokens: 300, CostKnown: false})
	// A cancelled turn with no tokens does not make the cost unknown...
	writeTurn(t, w2, "cancelled", usage{})
	// ...and a half-written last line does not stop the listing.
	appendRaw(t, second.FileOf(MainAgent), `{"time":"20`)
	for _, d := range []*Dir{first, second} {
		if err := d.Close(); err != nil {
			t.Fatal(err)
		}
	}

	sums, err := store.List(workspace)
	if err != nil {
		t.Fatal(err)
	}
	if len(sums) != 3 || sums[0].ID != second.ID() || sums[1].ID != first.ID() || sums[2].ID != empty.ID() {
		t.Fatalf("list = %+v, want second, first, empty", sums)
	}
	if s := sums[2]; s.Turns != 0 || s.FirstPrompt != "" || s.Dir != empty.Path() || s.Started.IsZero() {
		t.Errorf("empty session = %+v", s)
	}
	if s := sums[0]; s.Turns != 2 || s.FirstPrompt != "explain main.go" || s.Tokens != 300 || s.CostKnown {
		t.Errorf("second = %+v, want 2 turns, 300 tokens, unknown cost", s)
	}
	s := sums[1]
	if s.Turns != 3 || s.FirstPrompt != "find the auth code" || s.Tokens != 2000 || !s.CostKnown || s.Dir != first.Path() {
		t.Errorf("first = %+v, want 3 turns, 2000 tokens, known cost", s)
	}
	if s.Cost < 0.0149 || s.Cost > 0.0151 {
		t.Errorf("first cost = %v, want 0.015", s.Cost)
	}
}

func TestListCountsATurnCutShort(t *testing.T) {
	store := NewStore(t.TempDir(), nil)
	ws := t.TempDir()
	dir, err := store.Create(ws, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	w, err := dir.Writer(MainAgent)
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range []string{
		`{"type":"turn_started","prompt":"killed mid-turn"}`,
		`{"type":"usage","request":{"total_tokens":120,"cost":0.001,"cost_known":true}}`,
		`{"type":"usage","request":{"total_tokens":80,"cost":0.002,"cost_known":true}}`,
	} {
		if err := w.Append(KindEvent, MainAgent, json.RawMessage(ev)); err != nil {
			t.Fatal(err)
		}
	}
	list, err := store.List(ws)
	if err != nil || len(list) != 1 {
		t.Fatalf("list %v, %v", list, err)
	}
	if list[0].Tokens != 200 || !list[0].CostKnown || list[0].Cost < 0.0029 {
		t.Fatalf("a turn cut short counts %+v", list[0])
	}
}
