package llm_test

import (
	"context"
	"net"
	"net/http/httptrace"
	"strings"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"
	"go.uber.org/goleak"

	"github.com/seed-e4e525a6/baton/engine/llm"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/rawio"
)

// The client baton makes reads its stream with raw reads: against the
// scripted server, with the stream gathering as a session's does, each
// word sent only once the one before was taken (so reads wait on the
// poller), the whole reply arrives over a connection that reads raw.
func TestStreamReadsRawThroughTheDefaultTransport(t *testing.T) {
	leaks := goleak.IgnoreCurrent()
	words := strings.Fields("one two three four five six")
	taken := make(chan struct{})
	srv := llmtest.NewServer(t, func(_ *llmtest.Request, w *llmtest.Writer) {
		w.Chunk(text(""))
		for _, word := range words {
			w.Chunk(text(word))
			select {
			case <-taken:
			case <-w.Context().Done():
				return
			}
		}
		w.Done()
	})
	var conn net.Conn
	ctx := httptrace.WithClientTrace(context.Background(), &httptrace.ClientTrace{
		GotConn: func(info httptrace.GotConnInfo) { conn = info.Conn },
	})
	pieces := 0
	h := llm.Handler{Gather: llm.Gather{Most: 32 * time.Millisecond, Share: 8}, OnText: func(string) {
		pieces++
		taken <- struct{}{}
	}}
	req := openai.ChatCompletionRequest{Model: "m", Messages: []openai.ChatCompletionMessage{{Role: "user", Content: "hi"}}}
	resp, err := llm.Stream(ctx, srv.Client(), req, h)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Content != strings.Join(words, "") || pieces != len(words) {
		t.Fatalf("content %q in %d pieces, want %q in %d", resp.Content, pieces, strings.Join(words, ""), len(words))
	}
	if conn == nil || !rawio.Quiet(conn, 1) {
		t.Fatalf("the stream's connection %T does not read raw", conn)
	}
	srv.Close()
	goleak.VerifyNone(t, leaks)
}
