package engine

import (
	"context"
	"fmt"
	"net"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/permission"
	"github.com/seed-e4e525a6/baton/engine/transcript"
)

// tinyTimeouts stand in for the [network] defaults, scaled down.
var tinyTimeouts = llm.Timeouts{Connect: time.Second, FirstByte: 20 * time.Millisecond, Idle: 20 * time.Millisecond}

// newTimedSession is newTestSession with a client using timeouts.
func newTimedSession(t *testing.T, respond llmtest.Responder, timeouts llm.Timeouts, mutate func(*Config)) (*Session, *llmtest.Server) {
	t.Helper()
	srv := llmtest.NewServer(t, respond)
	cfg := Config{Client: srv.ClientWith(timeouts), Model: "test-model", Workspace: t.TempDir(), Mode: permission.Yolo,
		RetryDelays: []time.Duration{time.Millisecond, time.Millisecond}}
	if mutate != nil {
		mutate(&cfg)
	}
	s, err := NewSession(context.Background(), cfg)
	if err != nil {
		t.Fatalf("NewSession: %v", err)
	}
	t.Cleanup(s.Close)
	return s, srv
}

// A hung endpoint is retried, announced each time, and then fails the
// turn with a reason naming the timeout.
func TestTimeoutIsRetriedThenFailsTheTurn(t *testing.T) {
	s, srv := newTimedSession(t, func(_ *llmtest.Request, w *llmtest.Writer) {
		<-w.Context().Done() // never a header
	}, tinyTimeouts, nil)
	log := runTurn(t, s, "hi", nil)
	want := "no reply from the endpoint within 20ms (first_byte_timeout_s) (after 2 retries)"
	// Three tries were made (the retries below say so); on a loaded
	// machine a try can time out before the server's handler has even
	// recorded it, so the server may have seen fewer.
	if log.End.Status != event.StatusFailed || len(srv.Requests()) > 3 {
		t.Fatalf("status %s after %d requests", log.End.Status, len(srv.Requests()))
	}
	if errs := eventsOf[event.ErrorOccurred](log); len(errs) != 1 || errs[0].Message != want {
		t.Fatalf("errors %+v, want %q", errs, want)
	}
	retries := eventsOf[event.Retrying](log)
	if len(retries) != 2 || retries[1].Attempt != 2 || retries[1].Attempts != 2 ||
		retries[0].Reason != "no reply from the endpoint within 20ms (first_byte_timeout_s)" {
		t.Fatalf("retries %+v", retries)
	}
}

// stallAfterText leaves the first byte a generous minute, so a loaded
// machine never times out before the text arrives; only the stall after it
// is tiny.
var stallAfterText = llm.Timeouts{Connect: time.Second, FirstByte: time.Minute, Idle: 20 * time.Millisecond}

// A reply that stalls after text is not retried (the model would say it
// twice); the turn fails at once and keeps what was said.
func TestTimeoutAfterTextKeepsThePartialReply(t *testing.T) {
	s, srv := newTimedSession(t, func(_ *llmtest.Request, w *llmtest.Writer) {
		w.Chunk(map[string]any{"choices": []any{map[string]any{"index": 0, "delta": map[string]any{"content": "Hal"}}}})
		<-w.Context().Done()
	}, stallAfterText, nil)
	log := runTurn(t, s, "hi", nil)
	if log.End.Status != event.StatusFailed || len(srv.Requests()) != 1 || len(eventsOf[event.Retrying](log)) != 0 {
		t.Fatalf("status %s after %d requests", log.End.Status, len(srv.Requests()))
	}
	if errs := eventsOf[event.ErrorOccurred](log); len(errs) != 1 || errs[0].Message != "no data from the endpoint for 20ms (idle_timeout_s)" {
		t.Fatalf("errors %+v", errs)
	}
	if done := eventsOf[event.MessageDone](log); len(done) != 1 || done[0].Text != "Hal" {
		t.Fatalf("partial reply %+v", done)
	}
}

// Retry-After replaces the fixed pause and is named in the announcement.
func TestRetryAfterIsHonoured(t *testing.T) {
	t.Parallel() // waits out a real bound; overlaps the others that do
	s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		if r.Index == 0 {
			w.Header().Set("Retry-After", "1")
			w.Error(429, `{"error":{"message":"slow down"}}`)
			return
		}
		w.Text("ok")
	}, nil)
	log := runTurn(t, s, "hi", nil)
	if log.End.Status != event.StatusCompleted || len(srv.Requests()) != 2 {
		t.Fatalf("status %s after %d requests", log.End.Status, len(srv.Requests()))
	}
	retries := eventsOf[event.Retrying](log)
	if len(retries) != 1 || retries[0].Reason != "rate limited, Retry-After" {
		t.Fatalf("retries %+v", retries)
	}
	// The wait announced is the header's, not the configured millisecond.
	if wait := retries[0].At.Sub(retries[0].Time); wait < 900*time.Millisecond {
		t.Fatalf("announced a wait of %v for Retry-After: 1", wait)
	}
}

// A Retry-After longer than retry_after_max_s fails at once, saying so,
// rather than hammering the endpoint early.
func TestRetryAfterAboveTheMaximumFails(t *testing.T) {
	s, srv := newTestSession(t, func(_ *llmtest.Request, w *llmtest.Writer) {
		w.Header().Set("Retry-After", "3600")
		w.Error(429, `{"error":{"message":"daily quota"}}`)
	}, func(c *Config) { c.RetryAfterMax = 30 * time.Second })
	log := runTurn(t, s, "hi", nil)
	want := "rate limited (429): wait and retry, or check the quota: daily quota; the endpoint asks to retry after 3600 s (Retry-After), longer than retry_after_max_s (30 s)"
	if errs := eventsOf[event.ErrorOccurred](log); len(errs) != 1 || errs[0].Message != want || len(srv.Requests()) != 1 {
		t.Fatalf("errors %+v after %d requests, want %q", errs, len(srv.Requests()), want)
	}
}

// Interrupting (esc) during the wait before a retry ends the turn at once.
func TestInterruptDuringRetryWait(t *testing.T) {
	s, srv := newTestSession(t, func(_ *llmtest.Request, w *llmtest.Writer) {
		w.Error(503, `{"error":{"message":"overloaded"}}`)
	}, func(c *Config) { c.RetryDelays = []time.Duration{time.Hour} })
	log := watchTurn(t, s, "hi", func(ev event.Event) {
		if _, ok := ev.(event.Retrying); ok {
			s.Interrupt()
		}
	})
	if log.End.Status != event.StatusInterrupted || len(srv.Requests()) != 1 {
		t.Fatalf("status %s after %d requests", log.End.Status, len(srv.Requests()))
	}
}

// An endless reply is cut at reply_max_bytes; the turn fails and the
// transcript holds what came up to the cap, not gigabytes.
func TestEndlessReplyFailsTheTurnAtTheCap(t *testing.T) {
	const limit = 32 << 10
	_, workspace, dir := newRecorded(t, nil)
	s, _ := newTestSession(t, func(_ *llmtest.Request, w *llmtest.Writer) {
		piece := map[string]any{"choices": []any{map[string]any{"index": 0, "delta": map[string]any{"content": strings.Repeat("x", 999)}}}}
		for w.Context().Err() == nil {
			w.Chunk(piece)
		}
	}, func(c *Config) {
		recordTo(workspace, dir)(c)
		c.Limits.ReplyMaxBytes = limit
	})
	log := runTurn(t, s, "hi", nil)
	s.Close()
	if errs := eventsOf[event.ErrorOccurred](log); log.End.Status != event.StatusFailed || len(errs) != 1 ||
		errs[0].Message != "the reply exceeded 32 KiB (reply_max_bytes) and was cut off" {
		t.Fatalf("status %s, errors %+v", log.End.Status, errs)
	}
	data, err := os.ReadFile(dir.FileOf(transcript.MainAgent))
	if err != nil {
		t.Fatal(err)
	}
	longest := 0
	for _, run := range regexp.MustCompile(`x+`).FindAllString(string(data), -1) {
		longest = max(longest, len(run))
	}
	if longest != limit {
		t.Fatalf("the transcript keeps %d bytes of the reply, want the %d up to the cap", longest, limit)
	}
}

// A burst of children against a server whose accept queue overflows (9
// of the burst's connections are reset before any byte): every reset
// request is retried and every child completes. The next burst reuses
// the first one's connections. Each child may retry as often as there are
// resets: the process runner starts children one after another, so the
// first child can meet every reset on its own before the next one dials.
func TestBurstAgainstResettingServer(t *testing.T) {
	const children, resets = 32, 9
	var (
		ln      *llmtest.ResettingListener
		mu      sync.Mutex
		arrived int
		all     chan struct{}
		armed   bool
	)
	srv := llmtest.NewServerOn(t, func(l net.Listener) net.Listener {
		ln = llmtest.ResetFirst(l, 0)
		return ln
	}, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case isChild(r):
			// Every child waits for all of its burst, so the burst
			// holds one connection per child at once.
			mu.Lock()
			if arrived++; arrived == children {
				close(all)
			}
			wait := all
			mu.Unlock()
			select {
			case <-wait:
			case <-w.Context().Done():
				return
			}
			w.Text("done")
		case lastIsUser(r, "fan out"):
			mu.Lock()
			arrived, all = 0, make(chan struct{})
			if !armed {
				armed = true
				ln.ResetNext(resets) // from the burst on: the main agent's own connection is made
			}
			mu.Unlock()
			calls := make([]llmtest.Call, children)
			for i := range calls {
				calls[i] = taskCall(fmt.Sprintf("t%d", i), "explore", fmt.Sprintf("part %d", i), fmt.Sprintf("look at part %d", i))
			}
			w.ToolCalls(calls...)
		default:
			w.Text("all done")
		}
	})
	s, err := NewSession(context.Background(), Config{Client: srv.Client(), Model: "test-model", Workspace: t.TempDir(), Mode: permission.Yolo,
		RetryDelays: slices.Repeat([]time.Duration{time.Millisecond}, resets), Limits: Limits{MaxConcurrent: children}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	// A child that fails never reaches the server: the others stop
	// waiting for it.
	release := func(ev event.Event) {
		if f, ok := ev.(event.AgentFinished); ok && f.Status != event.StatusCompleted {
			mu.Lock()
			if arrived < children {
				arrived = children
				close(all)
			}
			mu.Unlock()
		}
	}
	log := watchTurn(t, s, "fan out", release)
	completed := 0
	for _, f := range eventsOf[event.AgentFinished](log) {
		if f.Status == event.StatusCompleted {
			completed++
		} else {
			t.Errorf("%s ended %s: %s", f.Agent, f.Status, f.Reason)
		}
	}
	if completed != children || log.End.Status != event.StatusCompleted {
		t.Fatalf("%d of %d children completed; turn %s", completed, children, log.End.Status)
	}
	if ln.Resets() != resets {
		t.Fatalf("%d connections reset, want %d", ln.Resets(), resets)
	}
	retried := 0
	for _, r := range eventsOf[event.Retrying](log) {
		if r.Agent != event.MainAgent {
			retried++
		}
	}
	if retried == 0 {
		t.Fatal("no child retried; the resets never met a request")
	}
	opened := ln.Accepted()
	if again := watchTurn(t, s, "fan out", release); len(eventsOf[event.AgentFinished](again)) != children {
		t.Fatalf("the second burst ran %d children", len(eventsOf[event.AgentFinished](again)))
	}
	// A connection or two may still be dialled while the main agent's
	// own reply holds one; without reuse it would be one per child.
	if again := ln.Accepted(); again-opened > children/4 {
		t.Errorf("the second burst opened %d new connections; want it to reuse the first burst's", again-opened)
	}
}

// A reply cut inside its first event, before any text, is retried like
// one cut between events, and the turn completes with the whole answer.
func TestCutInsideTheFirstEventIsRetried(t *testing.T) {
	var (
		mu    sync.Mutex
		tries int
	)
	s, _ := newTestSession(t, func(_ *llmtest.Request, w *llmtest.Writer) {
		mu.Lock()
		tries++
		first := tries == 1
		mu.Unlock()
		if first {
			w.Partial(`data: {"choices":[{"index":0,"delta":{"content":"Hel`)
			return
		}
		w.Text("Hello")
	}, nil)
	log := runTurn(t, s, "hi", nil)
	if log.End.Status != event.StatusCompleted {
		t.Fatalf("turn ended %s: %+v", log.End.Status, eventsOf[event.ErrorOccurred](log))
	}
	retries := eventsOf[event.Retrying](log)
	if len(retries) != 1 || !strings.Contains(retries[0].Reason, "cut off inside an event") {
		t.Fatalf("retries %+v", retries)
	}
	var text strings.Builder
	for _, d := range eventsOf[event.TextDelta](log) {
		text.WriteString(d.Text)
	}
	if text.String() != "Hello" {
		t.Fatalf("text shown %q, want the answer once", text.String())
	}
}
