package transcript

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestListSummarisesSessions(t *testing.T) {
	store := NewStore(t.TempDir(), nil)
	workspace := t.TempDir()
	if sums, err := store.List(workspace); err != nil || len(sums) != 0 {
		t.Fatalf("list of a new workspace = %v, %v; want empty", sums, err)
	}
	// A session in which no prompt was sent is no row.
	empty, err := store.Create(workspace, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	appendAll(t, writer(t, empty, MainAgent), KindMeta, MainAgent, Meta{Workspace: workspace})
	first, err := store.Create(workspace, time.Now().Add(-time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	w := writer(t, first, MainAgent)
	appendAll(t, w, KindMeta, MainAgent, Meta{Workspace: workspace, Model: "gpt-4.1"})
	writeTurn(t, w, "find the\n  auth   code", usage{TotalTokens: 1200, Cost: 0.01, CostKnown: true})
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
	writeTurn(t, w2, strings.Repeat("long ", 40), usage{TotalTokens: 300, CostKnown: false})
	// A cancelled turn with no tokens does not make the cost unknown...
	writeTurn(t, w2, "cancelled", usage{})
	// ...and a half-written last line does not stop the listing.
	appendRaw(t, second.FileOf(MainAgent), `{"time":"20`)
	for _, d := range []*Dir{first, second, empty} {
		if err := d.Close(); err != nil {
			t.Fatal(err)
		}
	}
	// The older session was used last: it comes first, though started first.
	setAge(t, second.Path(), time.Hour)
	setAge(t, first.Path(), time.Minute)

	sums, err := store.List(workspace)
	if err != nil {
		t.Fatal(err)
	}
	if len(sums) != 2 || sums[0].ID != first.ID() || sums[1].ID != second.ID() {
		t.Fatalf("list = %+v, want first (active a minute ago), second", sums)
	}
	if s := sums[1]; s.Turns != 2 || s.Tokens != 300 || s.CostKnown || utf8.RuneCountInString(s.Title) != maxTitleRunes || !strings.HasSuffix(s.Title, "…") {
		t.Errorf("second = %+v, want 2 turns, 300 tokens, unknown cost, a bounded title", s)
	}
	s := sums[0]
	if s.Turns != 3 || s.Title != "find the auth code" || s.Tokens != 2000 || !s.CostKnown || s.Dir != first.Path() || s.Workspace != workspace {
		t.Errorf("first = %+v, want 3 turns, 2000 tokens, known cost, its title and folder", s)
	}
	if s.Cost < 0.0149 || s.Cost > 0.0151 {
		t.Errorf("first cost = %v, want 0.015", s.Cost)
	}
	if !s.LastActive.After(sums[1].LastActive) {
		t.Errorf("last activity %v not after %v", s.LastActive, sums[1].LastActive)
	}
	latest, err := store.Latest(workspace)
	if err != nil || latest.ID() != first.ID() {
		t.Fatalf("Latest = %v, %v; want the list's first row %s", latest, err, first.ID())
	}
}

func TestListAllAcrossProjects(t *testing.T) {
	store := NewStore(t.TempDir(), nil)
	if all, err := store.ListAll(); err != nil || len(all) != 0 {
		t.Fatalf("ListAll of a fresh store = %v, %v", all, err)
	}
	var want []string
	for i, ws := range []string{t.TempDir(), t.TempDir()} {
		d, err := store.Create(ws, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		w := writer(t, d, MainAgent)
		appendAll(t, w, KindMeta, MainAgent, Meta{Workspace: ws})
		writeTurn(t, w, "prompt in project", usage{})
		if err := d.Close(); err != nil {
			t.Fatal(err)
		}
		setAge(t, d.Path(), time.Duration(i+1)*time.Minute)
		want = append(want, ws)
	}
	all, err := store.ListAll()
	if err != nil || len(all) != 2 || all[0].Workspace != want[0] || all[1].Workspace != want[1] {
		t.Fatalf("ListAll = %+v, %v; want both projects, most recent first", all, err)
	}
}

func TestCloseDiscardingEmpty(t *testing.T) {
	store := NewStore(t.TempDir(), nil)
	ws := t.TempDir()
	empty, err := store.Create(ws, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := empty.Lock(); err != nil {
		t.Fatal(err)
	}
	appendAll(t, writer(t, empty, MainAgent), KindMeta, MainAgent, Meta{Workspace: ws})
	if removed, err := empty.CloseDiscardingEmpty(); err != nil || !removed {
		t.Fatalf("empty session: removed %v, %v", removed, err)
	}
	if _, err := os.Stat(empty.Path()); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the empty session's folder is still there: %v", err)
	}
	used, err := store.Create(ws, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	writeTurn(t, writer(t, used, MainAgent), "keep me", usage{})
	if removed, err := used.CloseDiscardingEmpty(); err != nil || removed {
		t.Fatalf("a used session: removed %v, %v", removed, err)
	}
	if _, err := store.Latest(ws); err != nil {
		t.Fatalf("the used session is gone: %v", err)
	}
	// A session marked used is kept without its transcript being read:
	// here the turn's record is in a file summarize does not read.
	marked, err := store.Create(ws, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	writeTurn(t, writer(t, marked, "child-1"), "keep me too", usage{})
	marked.MarkUsed()
	if removed, err := marked.CloseDiscardingEmpty(); err != nil || removed {
		t.Fatalf("a session marked used: removed %v, %v", removed, err)
	}
	if _, err := os.Stat(marked.Path()); err != nil {
		t.Fatalf("the session marked used is gone: %v", err)
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
