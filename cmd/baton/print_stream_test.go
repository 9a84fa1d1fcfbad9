package main

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

// watchedWriter is a stdout that closes seen once it holds want.
type watchedWriter struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	want string
	seen chan struct{}
}

func (w *watchedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	had := strings.Contains(w.buf.String(), w.want)
	w.buf.Write(p)
	if !had && strings.Contains(w.buf.String(), w.want) {
		close(w.seen)
	}
	return len(p), nil
}

// TestTextAnswerStreams: the answer's first words reach stdout while the
// stream is still open. The server holds the rest of its reply until they
// have (or, as a guard against a hang, for a long while, which fails).
func TestTextAnswerStreams(t *testing.T) {
	t.Parallel()
	out := &watchedWriter{want: "first words", seen: make(chan struct{})}
	streamed := make(chan bool, 1)
	srv := llmtest.NewServer(t, func(r *llmtest.Request, w *llmtest.Writer) {
		w.Chunk(`{"choices":[{"index":0,"delta":{"content":"first words"}}]}`)
		select {
		case <-out.seen:
			streamed <- true
		case <-time.After(20 * time.Second):
			streamed <- false
		case <-w.Context().Done():
			return
		}
		w.Chunk(`{"choices":[{"index":0,"delta":{"content":", then the rest\n\n"}}]}`)
		w.Chunk(`{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`)
		w.Done()
	})
	ws := t.TempDir()
	env := []string{"HOME=" + t.TempDir(), "OPENAI_BASE_URL=" + srv.URL}
	var stderr bytes.Buffer
	if code := run(t.Context(), ws, []string{"-p", "hi"}, env, strings.NewReader(""), out, &stderr, nil); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if !<-streamed {
		t.Fatal("nothing reached stdout while the stream was open")
	}
	if got := out.buf.String(); got != "first words, then the rest\n" {
		t.Fatalf("stdout = %q", got)
	}
}

// TestTextHoldsEveryMainMessage: what the main agent says before calling
// tools is printed, a blank line, then the answer; progress stays on
// stderr and a child's text never reaches stdout.
func TestTextHoldsEveryMainMessage(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case !strings.Contains(r.System(), "You are baton"):
			w.Text("child notes")
		case r.Index == 0:
			w.Chunk(`{"choices":[{"index":0,"delta":{"content":"\nLet me look.\n"}}]}`)
			w.ToolCalls(llmtest.Call{Name: "task", Args: `{"description":"look","prompt":"look around","subagent_type":"explore"}`})
		default:
			w.Text("Found it.\n")
		}
	})
	r := runIn(t, t.Context(), []string{"OPENAI_BASE_URL=" + srv.URL}, "", "--yolo", "-p", "go")
	if r.code != exitOK || r.stdout != "Let me look.\n\nFound it.\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, "[Explore] look - done") {
		t.Fatalf("stderr = %q", r.stderr)
	}
}

// TestRetriedTextPrintedOnce: a request refused before any text is
// retried and its answer printed once; a stream cut after text is not
// retried, so the text said so far is printed once and the run fails.
func TestRetriedTextPrintedOnce(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, func(r *llmtest.Request, w *llmtest.Writer) {
		if r.Index == 0 {
			w.Header().Set("Retry-After", "1")
			w.Error(429, `{"error":{"message":"slow down"}}`)
			return
		}
		w.Text("the answer")
	})
	r := runIn(t, t.Context(), []string{"OPENAI_BASE_URL=" + srv.URL}, "", "-p", "go")
	if r.code != exitOK || r.stdout != "the answer\n" {
		t.Fatalf("after a retry: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}

	cut := llmtest.NewServer(t, func(r *llmtest.Request, w *llmtest.Writer) {
		w.Chunk(`{"choices":[{"index":0,"delta":{"content":"half an answer"}}]}`)
	})
	r = runIn(t, t.Context(), []string{"OPENAI_BASE_URL=" + cut.URL}, "", "-p", "go")
	if r.code != exitFailed || r.stdout != "half an answer\n" || len(cut.Requests()) != 1 {
		t.Fatalf("after a cut: exit %d, %d requests, stdout %q, stderr %q", r.code, len(cut.Requests()), r.stdout, r.stderr)
	}
}
