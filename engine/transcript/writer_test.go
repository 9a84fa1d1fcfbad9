package transcript

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestSessionRoundTrip(t *testing.T) {
	_, _, d := newSession(t, nil)
	main := writer(t, d, MainAgent)
	explore := writer(t, d, "explore-1")
	plan := writer(t, d, "plan-2")

	appendAll(t, main, KindMeta, MainAgent, Meta{Workspace: "/src/app", Model: "gpt-4.1", Version: "v0.1.0"})
	appendAll(t, main, KindEvent, MainAgent, event{Type: "turn_started", Prompt: "find <auth> & plan"})
	appendAll(t, main, KindMessage, MainAgent, message{Role: "user", Content: "find <auth> & plan"})
	appendAll(t, explore, KindEvent, "explore-1", event{Type: "agent_started", Prompt: "find auth"})
	appendAll(t, plan, KindEvent, "plan-2", event{Type: "agent_started", Prompt: "plan JWT"})
	appendAll(t, explore, KindMessage, "explore-1", message{Role: "assistant", Content: "auth is in internal/auth"})
	appendAll(t, plan, KindEvent, "plan-2", event{Type: "agent_finished", Status: "completed"})
	appendAll(t, main, KindEvent, MainAgent, event{Type: "turn_ended", Status: "completed", Usage: &usage{TotalTokens: 10}})

	got := mustRead(t, d, MainAgent)
	if len(got) != 4 {
		t.Fatalf("main: %d records, want 4", len(got))
	}
	if m := dataOf[Meta](t, got[0]); got[0].Kind != KindMeta || m.Model != "gpt-4.1" {
		t.Errorf("main[0] = %s %+v, want the meta record", got[0].Kind, m)
	}
	if e := dataOf[event](t, got[1]); e.Prompt != "find <auth> & plan" {
		t.Errorf("prompt = %q, want it unchanged", e.Prompt)
	}
	if m := dataOf[message](t, got[2]); got[2].Kind != KindMessage || m.Role != "user" {
		t.Errorf("main[2] = %s %+v, want the user message", got[2].Kind, m)
	}
	if got[3].Time.Before(got[0].Time) {
		t.Errorf("record times go backwards: %v then %v", got[0].Time, got[3].Time)
	}
	for agent, want := range map[string][]string{"explore-1": {"event", "message"}, "plan-2": {"event", "event"}} {
		recs := mustRead(t, d, agent)
		var kinds []string
		for _, r := range recs {
			kinds = append(kinds, r.Kind)
			if r.Agent != agent {
				t.Errorf("%s: record of agent %q", agent, r.Agent)
			}
		}
		if fmt.Sprint(kinds) != fmt.Sprint(want) {
			t.Errorf("%s kinds = %v, want %v", agent, kinds, want)
		}
	}
	raw, err := os.ReadFile(d.FileOf(MainAgent))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), "<auth> & plan") {
		t.Errorf("HTML-escaped text in the transcript, want it readable:\n%s", raw)
	}
}

func TestFileOfSanitizesAgentIDs(t *testing.T) {
	d := newDir("id", "/s", nil)
	for agent, want := range map[string]string{
		MainAgent:     "/s/main.jsonl",
		"explore-1":   "/s/explore-1.jsonl",
		"../../etc/x": "/s/_._.._etc_x.jsonl",
		".hidden":     "/s/_hidden.jsonl",
		"":            "/s/_.jsonl",
	} {
		if got := d.FileOf(agent); got != want {
			t.Errorf("FileOf(%q) = %q, want %q", agent, got, want)
		}
	}
}

func TestConcurrentAppendsKeepWholeLines(t *testing.T) {
	_, _, d := newSession(t, nil)
	const goroutines, each = 8, 50
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			// Each goroutine asks for the writer itself: all get the same one.
			w, err := d.Writer(MainAgent)
			if err != nil {
				t.Error(err)
				return
			}
			for i := range each {
				text := strings.Repeat(fmt.Sprint(g), 100+i*40)
				if err := w.Append(KindEvent, MainAgent, event{Type: "text", Text: text, N: g}); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	recs := mustRead(t, d, MainAgent)
	if len(recs) != goroutines*each {
		t.Fatalf("%d records, want %d", len(recs), goroutines*each)
	}
}

func TestAppendAfterCrashStartsFreshLine(t *testing.T) {
	_, _, d := newSession(t, nil)
	w := writer(t, d, MainAgent)
	writeTurn(t, w, "first", usage{})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	// A crash left half a line behind; the resumed session appends again.
	appendRaw(t, d.FileOf(MainAgent), `{"time":"2026-11-25T21:43:00Z","kind":"ev`)
	writeTurn(t, writer(t, d, MainAgent), "after resume", usage{})

	recs, damage, err := d.Read(MainAgent)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 4 || dataOf[event](t, recs[2]).Prompt != "after resume" {
		t.Fatalf("got %d records, want both turns whole", len(recs))
	}
	if damage == nil || fmt.Sprint(damage.Corrupt) != "[3]" || damage.Line != 0 {
		t.Errorf("damage = %+v, want the fragment reported as corrupt line 3", damage)
	}
}

func TestAppendRejectsBadInput(t *testing.T) {
	_, _, d := newSession(t, nil)
	w := writer(t, d, MainAgent)
	for name, call := range map[string]func() error{
		"unknown kind":   func() error { return w.Append("note", MainAgent, event{}) },
		"empty agent":    func() error { return w.Append(KindEvent, "", event{}) },
		"unmarshallable": func() error { return w.Append(KindEvent, MainAgent, func() {}) },
	} {
		if err := call(); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := d.Writer(""); err == nil {
		t.Error("Writer(\"\"): no error")
	}
	if _, err := os.Stat(d.FileOf(MainAgent)); err != nil {
		t.Fatal(err)
	}
	if recs := mustRead(t, d, MainAgent); len(recs) != 0 {
		t.Errorf("%d records written from bad input", len(recs))
	}
}

func TestClosedWriterRefusesAndReopens(t *testing.T) {
	_, _, d := newSession(t, nil)
	w := writer(t, d, MainAgent)
	writeTurn(t, w, "one", usage{})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Append(KindEvent, MainAgent, event{}); err == nil {
		t.Error("append after close: no error")
	}
	if err := w.Sync(); err == nil {
		t.Error("sync after close: no error")
	}
	again := writer(t, d, MainAgent)
	if again == w {
		t.Fatal("Writer returned the closed writer")
	}
	writeTurn(t, again, "two", usage{})
	if err := again.Sync(); err != nil {
		t.Fatal(err)
	}
	if recs := mustRead(t, d, MainAgent); len(recs) != 4 {
		t.Errorf("%d records, want 4", len(recs))
	}
}

func TestTrashMovesFileAndClosesWriter(t *testing.T) {
	_, _, d := newSession(t, nil)
	w := writer(t, d, "explore-1")
	appendAll(t, w, KindEvent, "explore-1", event{Type: "agent_started"})
	now := time.Unix(1795000000, 0)
	if err := d.Trash("explore-1", now); err != nil {
		t.Fatal(err)
	}
	if err := w.Append(KindEvent, "explore-1", event{}); err == nil {
		t.Error("append to a trashed transcript: no error")
	}
	if _, _, err := d.Read("explore-1"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("read trashed transcript: err = %v, want not exist", err)
	}
	trashed := d.FileOf("explore-1") + ".deleted.1795000000"
	if _, err := os.Stat(trashed); err != nil {
		t.Errorf("trash file: %v", err)
	}
	if err := d.Trash("plan-2", now); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("trash of a missing transcript: err = %v, want not exist", err)
	}
	if got, _ := filepath.Glob(filepath.Join(d.Path(), "*.jsonl")); len(got) != 0 {
		t.Errorf("transcripts left after trash: %v", got)
	}
}

func TestReleasedWriterReopensOnAppend(t *testing.T) {
	_, _, d := newSession(t, nil)
	w := writer(t, d, "explore-1")
	appendAll(t, w, KindEvent, "explore-1", event{Type: "agent_finished"})
	if err := d.Release("explore-1"); err != nil {
		t.Fatal(err)
	}
	if err := d.Release("plan-2"); err != nil {
		t.Errorf("release of an agent never written: %v", err)
	}
	if err := w.Sync(); err != nil {
		t.Errorf("sync of a released writer: %v", err)
	}
	if again := writer(t, d, "explore-1"); again != w {
		t.Fatal("Writer opened a second writer for a released agent")
	}
	appendAll(t, w, KindEvent, "explore-1", event{Type: "review_finished"})
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Append(KindEvent, "explore-1", event{}); err == nil {
		t.Error("append after the session closed: no error")
	}
	if recs := mustRead(t, d, "explore-1"); len(recs) != 2 {
		t.Errorf("%d records, want 2", len(recs))
	}
}

// TestReleaseSyncFailureIsReported checks that a released file whose
// background sync fails is not forgotten: the next Release reports it,
// and Close, which waits for every sync, reports one still in flight.
func TestReleaseSyncFailureIsReported(t *testing.T) {
	_, _, d := newSession(t, nil)
	broken := func() *os.File {
		f, err := os.CreateTemp(t.TempDir(), "gone")
		if err != nil {
			t.Fatal(err)
		}
		_ = f.Close() // its sync fails: the file is already closed
		return f
	}
	d.syncLater(broken())
	d.waitSynced()
	if err := d.Release("explore-1"); err == nil || !strings.Contains(err.Error(), "close transcript") {
		t.Errorf("release after a failed sync: err = %v, want the sync's failure", err)
	}
	if err := d.Release("explore-1"); err != nil {
		t.Errorf("a failure reported twice: %v", err)
	}
	d.syncLater(broken())
	if err := d.Close(); err == nil || !strings.Contains(err.Error(), "close transcript") {
		t.Errorf("close with a failing sync in flight: err = %v, want the sync's failure", err)
	}
}

// TestEncodeLineIsTheRecordEncoded checks that a line written around its
// data is the bytes of the whole Record encoded, for data of every shape
// a transcript holds, with characters HTML escaping would change.
func TestEncodeLineIsTheRecordEncoded(t *testing.T) {
	at := time.Date(2026, 11, 29, 8, 1, 2, 345678901, time.FixedZone("CET", 3600))
	for _, data := range []any{
		nil,
		"a <b> & c\n",
		json.RawMessage(`{ "type": "agent_finished",  "text": "x < y && z" }`),
		map[string]any{"output": "if a < b && c > d {}\n\tü 日本", "n": 3, "list": []int{1, 2}},
		event{Type: "tool_finished"},
	} {
		for _, agent := range []string{MainAgent, "explore-12", `odd"agent<>`} {
			got, err := encodeLine(at, KindEvent, agent, data)
			if err != nil {
				t.Fatal(err)
			}
			raw, err := marshal(data)
			if err != nil {
				t.Fatal(err)
			}
			want, err := marshal(Record{Time: at.UTC(), Kind: KindEvent, Agent: agent, Data: bytes.TrimSuffix(raw, []byte{'\n'})})
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("data %#v, agent %q:\n got %s\nwant %s", data, agent, got, want)
			}
		}
	}
}

// TestSettleWhileReleasing releases files while the turn's end settles
// them, as a background child ending at that moment does: nothing is
// lost or left open, and no wait misses a sync started before it.
func TestSettleWhileReleasing(t *testing.T) {
	_, _, d := newSession(t, nil)
	const agents = 40
	for i := range agents {
		appendAll(t, writer(t, d, fmt.Sprintf("explore-%d", i)), KindEvent, fmt.Sprintf("explore-%d", i), event{Type: "agent_finished"})
	}
	released := make(chan struct{})
	go func() {
		defer close(released)
		for i := range agents {
			if err := d.Release(fmt.Sprintf("explore-%d", i)); err != nil {
				t.Error(err)
			}
		}
	}()
	for settling := true; settling; {
		select {
		case <-released:
			settling = false
		default:
		}
		if err := d.Settle(); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.Settle(); err != nil {
		t.Fatal(err)
	}
	d.syncMu.Lock()
	left := d.syncing
	d.syncMu.Unlock()
	if left != 0 {
		t.Fatalf("%d files still syncing after Settle", left)
	}
	for i := range agents {
		if recs := mustRead(t, d, fmt.Sprintf("explore-%d", i)); len(recs) != 1 {
			t.Errorf("explore-%d: %d records, want 1", i, len(recs))
		}
	}
}
