package llm_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/engine/llm"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

// endless streams 1,000-byte text chunks until the client goes away.
func endless(w *llmtest.Writer) {
	piece := text(strings.Repeat("x", 1000))
	for w.Context().Err() == nil {
		w.Chunk(piece)
	}
}

// An endless reply is cut at the cap; what is kept is exactly what came
// up to it.
func TestEndlessReplyIsCapped(t *testing.T) {
	const limit = 64 << 10
	srv := llmtest.NewServer(t, func(_ *llmtest.Request, w *llmtest.Writer) { endless(w) })
	resp, err := llm.Stream(context.Background(), srv.Client(), hi, llm.Handler{MaxBytes: limit})
	var tl *llm.ReplyTooLargeError
	if !errors.As(err, &tl) || tl.Limit != limit {
		t.Fatalf("error = %#v, want a *ReplyTooLargeError of %d", err, limit)
	}
	if err.Error() != "the reply exceeded 64 KiB (reply_max_bytes) and was cut off" {
		t.Errorf("message = %q", err)
	}
	if len(resp.Content) != limit || strings.Trim(resp.Content, "x") != "" {
		t.Errorf("kept %d bytes, want the %d that came up to the cap", len(resp.Content), limit)
	}
}

// A line that never ends is cut instead of filling memory.
func TestEndlessLineIsCut(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(rw, `data: {"choices":[{"delta":{"content":"`)
		piece := strings.Repeat("x", 4096)
		for r.Context().Err() == nil {
			if _, err := io.WriteString(rw, piece); err != nil {
				return
			}
		}
	}))
	defer srv.Close()
	client := llm.NewClient(llm.Config{BaseURL: srv.URL + "/v1"})
	_, err := llm.Stream(context.Background(), client, hi, llm.Handler{MaxBytes: 1 << 10})
	want := "the endpoint sent one stream line of more than 65 KiB; the stream was cut"
	if err == nil || err.Error() != want {
		t.Fatalf("error = %v, want %q", err, want)
	}
}

// A body of endless lines that are not data is cut too: go-openai would
// keep them all to parse as an error.
func TestEndlessNonDataIsCut(t *testing.T) {
	srv := llmtest.NewServer(t, func(_ *llmtest.Request, w *llmtest.Writer) {
		w.Raw(`{"note":`)
		for w.Context().Err() == nil {
			w.Raw(`"garbage"`)
		}
	})
	_, err := llm.Stream(context.Background(), srv.Client(), hi, llm.Handler{})
	var pe *llm.ProviderError
	if !errors.As(err, &pe) || !strings.HasPrefix(err.Error(), "the endpoint sent more than 64 KiB that is not stream data: {\"note\":") {
		t.Fatalf("error = %v, want a provider error naming the first line", err)
	}
}

// A body that is not an event stream names what came back, even with 200.
func TestNonStreamBodiesAreNamed(t *testing.T) {
	cases := []struct {
		name, ctype, body, want string
	}{
		{"HTML page with 200", "text/html; charset=utf-8", "<!DOCTYPE html>\n<html><body>Sign in</body></html>",
			`the endpoint answered 200 but not with an event stream: check OPENAI_BASE_URL: text/html body: "<!DOCTYPE html>"`},
		{"plain text with 200", "text/plain", "Service starting, try again\n",
			`the endpoint answered 200 but not with an event stream: check OPENAI_BASE_URL: text/plain body: "Service starting, try again"`},
		{"a whole JSON completion instead of a stream", "application/json", `{"id":"c1","choices":[{"message":{"content":"hi"}}]}`,
			`the endpoint answered 200 but not with an event stream: check OPENAI_BASE_URL: application/json body: "{\"id\":\"c1\"`},
		{"HTML error page", "text/html", "\n<html><head><title>504 Gateway Time-out</title></head></html>",
			`provider error (504): text/html body: "<html><head><title>504 Gateway Time-out</title></head></html>"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status := 200
			if strings.Contains(c.want, "(504)") {
				status = 504
			}
			srv := llmtest.NewServer(t, func(_ *llmtest.Request, w *llmtest.Writer) { w.Body(status, c.ctype, c.body) })
			_, err := llm.Stream(context.Background(), srv.Client(), hi, llm.Handler{})
			var pe *llm.ProviderError
			if !errors.As(err, &pe) || pe.Status != status || !strings.HasPrefix(err.Error(), c.want) {
				t.Fatalf("error = %v\nwant   %s… with status %d", err, c.want, status)
			}
		})
	}
}

// Retry-After, in seconds or as an HTTP date, reaches the provider error.
func TestRetryAfterIsRead(t *testing.T) {
	for _, header := range []string{"30", time.Now().Add(30 * time.Second).UTC().Format(http.TimeFormat)} {
		srv := llmtest.NewServer(t, func(_ *llmtest.Request, w *llmtest.Writer) {
			w.Header().Set("Retry-After", header)
			w.Error(429, `{"error":{"message":"slow down"}}`)
		})
		_, err := llm.Stream(context.Background(), srv.Client(), hi, llm.Handler{})
		var pe *llm.ProviderError
		if !errors.As(err, &pe) || pe.Status != 429 {
			t.Fatalf("error = %#v, want a 429", err)
		}
		// An HTTP date has a resolution of one second.
		if pe.RetryAfter < 28*time.Second || pe.RetryAfter > 30*time.Second {
			t.Errorf("Retry-After %q read as %v, want about 30s", header, pe.RetryAfter)
		}
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	cases := []struct {
		header string
		want   time.Duration
		ok     bool
	}{
		{"0", 0, true},
		{" 120 ", 2 * time.Minute, true},
		{"Thu, 02 Jan 2025 03:05:05 GMT", time.Minute, true},
		{"Thu, 02 Jan 2025 03:00:00 GMT", 0, true}, // in the past
		{"-5", 0, false},
		{"soon", 0, false},
		{"", 0, false},
	}
	for _, c := range cases {
		got, ok := llm.ParseRetryAfter(c.header, now)
		if got != c.want || ok != c.ok {
			t.Errorf("ParseRetryAfter(%q) = %v, %v; want %v, %v", c.header, got, ok, c.want, c.ok)
		}
	}
}

// A request Stream did not send (the model list) has its body capped: an
// endless list fails instead of filling memory.
func TestEndlessModelListIsCut(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(rw, `{"data":[`)
		// 56 KiB a write: the 16 MiB cap is reached in some 300 writes,
		// well inside the list's own time limit on a loaded machine.
		entry := strings.Repeat(`{"id":"m","object":"model"},`, 2000)
		for r.Context().Err() == nil {
			if _, err := io.WriteString(rw, entry); err != nil {
				return
			}
		}
	}))
	defer srv.Close()
	client := llm.NewClient(llm.Config{BaseURL: srv.URL + "/v1"})
	_, err := llm.ServedModels(context.Background(), client)
	if err == nil || !strings.Contains(err.Error(), "the endpoint sent a body of more than 16 MiB") {
		t.Fatalf("error = %v, want the body cap", err)
	}
}
