package llm_test

import (
	"context"
	"testing"

	openai "github.com/sashabaranov/go-openai"
	"go.uber.org/goleak"

	"github.com/seed-e4e525a6/baton/engine/llm"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

// Cancelling must return ctx.Err() itself, so callers can tell a person's
// stop from a provider failure, and must leave no goroutine behind.
func TestStreamCancel(t *testing.T) {
	cases := []struct {
		name string
		// firstChunk makes the server stream one text chunk before blocking;
		// otherwise it blocks before sending headers.
		firstChunk bool
	}{
		{"while waiting for the response", false},
		{"mid-stream", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			leaks := goleak.IgnoreCurrent()
			arrived := make(chan struct{})
			srv := llmtest.NewServer(t, func(_ *llmtest.Request, w *llmtest.Writer) {
				if c.firstChunk {
					w.Chunk(text("first"))
				}
				close(arrived)
				<-w.Context().Done()
			})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			h := llm.Handler{}
			if c.firstChunk {
				h.OnText = func(string) { cancel() }
			} else {
				go func() { // exits once the request has arrived
					<-arrived
					cancel()
				}()
			}
			req := openai.ChatCompletionRequest{Model: "m", Messages: []openai.ChatCompletionMessage{{Role: "user", Content: "hi"}}}
			resp, err := llm.Stream(ctx, srv.Client(), req, h)
			if err != context.Canceled {
				t.Fatalf("error = %#v, want context.Canceled itself", err)
			}
			if c.firstChunk && resp.Content != "first" {
				t.Errorf("partial content = %q, want %q", resp.Content, "first")
			}
			srv.Close()
			goleak.VerifyNone(t, leaks)
		})
	}
}
