package engine

import (
	"strings"
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

// summarizing answers the compaction request with a summary and any
// other with an echo of the prompt.
func summarizing(r *llmtest.Request, w *llmtest.Writer) {
	if strings.Contains(r.LastUser(), "Summarize this conversation") {
		w.Text("SUMMARY: the number is 42")
		return
	}
	w.Text("answer to " + r.LastUser())
}

// waitCompacted reads events until Compacted.
func waitCompacted(t *testing.T, s *Session) (event.CompactionStarted, event.Compacted) {
	t.Helper()
	var started event.CompactionStarted
	deadline := time.After(testTimeout)
	for {
		select {
		case ev := <-s.Events():
			switch e := ev.(type) {
			case event.CompactionStarted:
				started = e
			case event.Compacted:
				return started, e
			}
		case <-deadline:
			t.Fatal("no Compacted event")
		}
	}
}

// historyText joins the contents of a request's messages.
func historyText(r *llmtest.Request) string {
	var b strings.Builder
	for _, m := range r.Body.Messages {
		b.WriteString(m.Role + ": " + m.Content + "\n")
	}
	return b.String()
}

func TestCompactReplacesHistoryAndSurvivesResume(t *testing.T) {
	store, ws, dir := newRecorded(t, nil)
	s, srv := newTestSession(t, summarizing, recordTo(ws, dir))
	if err := s.Compact(""); err != ErrNothingToCompact {
		t.Fatalf("compact of an empty conversation: %v", err)
	}
	runTurn(t, s, "remember the number 42", nil)
	if err := s.Compact("the number"); err != nil {
		t.Fatal(err)
	}
	started, done := waitCompacted(t, s)
	if started.Auto || started.Focus != "the number" || done.Error != "" || done.Summary != "SUMMARY: the number is 42" || done.Replaced != 2 {
		t.Fatalf("started %+v, compacted %+v", started, done)
	}
	ask := srv.Requests()[len(srv.Requests())-1]
	if !strings.Contains(ask.LastUser(), "Focus above all on: the number") || len(ask.Body.Tools) != 0 ||
		!strings.Contains(historyText(ask), "remember the number 42") {
		t.Errorf("the summary request:\n%s", historyText(ask))
	}
	runTurn(t, s, "what number?", nil)
	next := historyText(srv.Requests()[len(srv.Requests())-1])
	if strings.Contains(next, "remember the number 42") || !strings.Contains(next, "SUMMARY: the number is 42") {
		t.Fatalf("the turn after /compact sent:\n%s", next)
	}
	s.Close()
	if err := dir.Close(); err != nil {
		t.Fatal(err)
	}

	again, err := store.Open(ws, dir.ID())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = again.Close() })
	resumed, srv2 := newTestSession(t, summarizing, recordTo(ws, again))
	var sawFold bool
	for _, ev := range resumed.History() {
		if c, ok := ev.(event.Compacted); ok && c.Summary != "" {
			sawFold = true
		}
	}
	if !sawFold {
		t.Error("the resumed history lacks the compaction")
	}
	runTurn(t, resumed, "and now?", nil)
	after := historyText(srv2.Requests()[len(srv2.Requests())-1])
	if strings.Contains(after, "remember the number 42") || !strings.Contains(after, "SUMMARY: the number is 42") || !strings.Contains(after, "what number?") {
		t.Fatalf("the resumed model got:\n%s", after)
	}
}

func TestAutoCompactWhenTheContextFills(t *testing.T) {
	window := func(c *Config) {
		// Every scripted request uses 120 tokens: 92% of this window.
		c.Catalog = llm.NewCatalog(map[string]llm.ModelInfo{"test-model": {ContextWindow: 130}})
		c.AutoCompactAt = 0.85
	}
	s, srv := newTestSession(t, summarizing, window)
	first := runTurn(t, s, "remember the number 42", nil)
	if len(eventsOf[event.CompactionStarted](first)) != 0 {
		t.Fatal("compacted before anything was said")
	}
	second := runTurn(t, s, "what number?", nil)
	starts, ends := eventsOf[event.CompactionStarted](second), eventsOf[event.Compacted](second)
	if len(starts) != 1 || !starts[0].Auto || starts[0].Fill < 0.85 || len(ends) != 1 || ends[0].Summary == "" {
		t.Fatalf("auto compaction: started %+v, ended %+v", starts, ends)
	}
	last := historyText(srv.Requests()[len(srv.Requests())-1])
	if strings.Contains(last, "remember the number 42") || !strings.Contains(last, "SUMMARY") || !strings.Contains(last, "what number?") {
		t.Fatalf("the turn after auto compaction sent:\n%s", last)
	}
	if second.End.Status != event.StatusCompleted {
		t.Errorf("the turn ended %s", second.End.Status)
	}

	off, _ := newTestSession(t, summarizing, func(c *Config) { window(c); c.AutoCompactAt = 0 })
	runTurn(t, off, "one", nil)
	if got := eventsOf[event.CompactionStarted](runTurn(t, off, "two", nil)); len(got) != 0 {
		t.Error("compacted with auto_compact_at off")
	}
}

func TestCompactFailureKeepsHistory(t *testing.T) {
	s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		if strings.Contains(r.LastUser(), "Summarize this conversation") {
			w.Error(400, `{"error":{"message":"bad request"}}`)
			return
		}
		w.Text("answer to " + r.LastUser())
	}, nil)
	runTurn(t, s, "keep me", nil)
	if err := s.Compact(""); err != nil {
		t.Fatal(err)
	}
	if _, done := waitCompacted(t, s); done.Error == "" || done.Summary != "" {
		t.Fatalf("a failed compaction reported %+v", done)
	}
	runTurn(t, s, "still there?", nil)
	if !strings.Contains(historyText(srv.Requests()[len(srv.Requests())-1]), "keep me") {
		t.Error("a failed compaction lost the history")
	}
}
