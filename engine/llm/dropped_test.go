package llm_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/llm"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

// transient fails the test unless err is a *ProviderError marked
// Transient, and returns it.
func transient(t *testing.T, err error) *llm.ProviderError {
	t.Helper()
	var pe *llm.ProviderError
	if !errors.As(err, &pe) || !pe.Transient {
		t.Fatalf("error = %#v (%v), want a transient *llm.ProviderError", err, err)
	}
	return pe
}

// A connection the server resets before any byte (a full accept queue)
// is transient; the next one is served.
func TestResetConnectionIsTransient(t *testing.T) {
	var ln *llmtest.ResettingListener
	srv := llmtest.NewServerOn(t, func(l net.Listener) net.Listener {
		ln = llmtest.ResetFirst(l, 1)
		return ln
	}, func(_ *llmtest.Request, w *llmtest.Writer) { w.Text("hello") })
	_, err := llm.Stream(context.Background(), srv.Client(), hi, llm.Handler{})
	transient(t, err)
	if ln.Resets() != 1 {
		t.Fatalf("%d connections reset, want 1", ln.Resets())
	}
	resp, err := llm.Stream(context.Background(), srv.Client(), hi, llm.Handler{})
	if err != nil || resp.Content != "hello" {
		t.Fatalf("after the reset: %q, %v", resp.Content, err)
	}
}

// Nothing listening: a refused connection is transient too.
func TestRefusedConnectionIsTransient(t *testing.T) {
	closed := httptest.NewServer(http.NotFoundHandler())
	base := closed.URL + "/v1"
	closed.Close()
	_, err := llm.Stream(context.Background(), llm.NewClient(llm.Config{APIKey: "k", BaseURL: base}), hi, llm.Handler{})
	transient(t, err)
}

// A stream cut inside an event, before or after text, is a cut reply
// (transient, with what was said kept), not an unreadable chunk; a cut
// between events is transient as well.
func TestCutInsideAnEventIsACut(t *testing.T) {
	for name, c := range map[string]struct {
		script func(w *llmtest.Writer)
		reason string
		text   string
	}{
		"inside the first event": {func(w *llmtest.Writer) {
			w.Partial(`data: {"choices":[{"index":0,"delta":{"content":"Hel`)
		}, "the reply was cut off inside an event", ""},
		"inside an event after text": {func(w *llmtest.Writer) {
			w.Chunk(text("Hel"))
			w.Partial(`data: {"choices":[{"index":0,"delta":{"content":"lo`)
		}, "the reply was cut off inside an event", "Hel"},
		"between events": {func(w *llmtest.Writer) {
			w.Chunk(roleChunk)
		}, "the reply was cut off (no finish_reason and no [DONE])", ""},
	} {
		t.Run(name, func(t *testing.T) {
			srv := llmtest.NewServer(t, func(_ *llmtest.Request, w *llmtest.Writer) { c.script(w) })
			resp, err := llm.Stream(context.Background(), srv.Client(), hi, llm.Handler{})
			if pe := transient(t, err); pe.Reason != c.reason {
				t.Errorf("reason = %q, want %q", pe.Reason, c.reason)
			}
			if resp.Content != c.text {
				t.Errorf("content = %q, want %q", resp.Content, c.text)
			}
		})
	}
}

// A last line that is whole but lacks its newline is no cut: a server
// that closes right after [DONE] or after its final chunk gave the whole
// reply.
func TestWholeLastLineWithoutNewline(t *testing.T) {
	for name, last := range map[string]string{
		"[DONE]":      "data: [DONE]",
		"final chunk": "data: " + stopChunk,
	} {
		t.Run(name, func(t *testing.T) {
			srv := llmtest.NewServer(t, func(_ *llmtest.Request, w *llmtest.Writer) {
				w.Chunk(text("ok"))
				if name == "[DONE]" {
					w.Chunk(stopChunk)
				}
				w.Partial(last)
			})
			resp, err := llm.Stream(context.Background(), srv.Client(), hi, llm.Handler{})
			if err != nil || resp.Content != "ok" || resp.FinishReason != "stop" {
				t.Fatalf("got %+v, %v; want the whole reply", resp, err)
			}
		})
	}
}
