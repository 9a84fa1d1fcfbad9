package llm_test

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httptrace"
	"sync/atomic"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/llm"
	"github.com/seed-e4e525a6/baton/engine/rawio"
)

// A stream whose body ends in a packet of its own, after [DONE] has been
// read and the stream has returned, still leaves its connection to the
// next request: the last, empty chunk of an HTTP/1 body is read in the
// background. The server sends that end only once the client's Stream has
// returned, and every connection after the first is slow to dial, so the
// next request takes the first connection if it comes back at all; closed
// at [DONE], it would not.
func TestAStreamsConnectionIsReusedWhenItsEndComesAfterDone(t *testing.T) {
	end := make(chan struct{}, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, `data: {"choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":"stop"}]}`+"\n\ndata: [DONE]\n\n")
		w.(http.Flusher).Flush()
		select {
		case <-end:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	stop := make(chan struct{})
	defer close(stop)
	var dials atomic.Int32
	dialer := &net.Dialer{}
	transport := &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		if dials.Add(1) > 1 {
			select {
			case <-stop:
				return nil, errors.New("the test ended")
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(2 * time.Second):
			}
		}
		c, err := dialer.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return rawio.Conn(c), nil
	}}
	defer transport.CloseIdleConnections()
	client := llm.NewClient(llm.Config{APIKey: "k", BaseURL: srv.URL + "/v1", HTTPClient: &http.Client{Transport: transport}})
	req := openai.ChatCompletionRequest{Model: "m", Messages: []openai.ChatCompletionMessage{{Role: "user", Content: "hi"}}}
	h := llm.Handler{Gather: llm.Gather{Most: 32 * time.Millisecond}}
	for i := range 3 {
		var reused bool
		ctx := httptrace.WithClientTrace(context.Background(), &httptrace.ClientTrace{
			GotConn: func(info httptrace.GotConnInfo) { reused = info.Reused },
		})
		resp, err := llm.Stream(ctx, client, req, h)
		if err != nil {
			t.Fatalf("request %d: %v", i+1, err)
		}
		if resp.Content != "hi" {
			t.Fatalf("request %d: content %q", i+1, resp.Content)
		}
		if i > 0 && !reused {
			t.Fatalf("request %d connected anew: the first stream's connection was dropped", i+1)
		}
		end <- struct{}{}
	}
}
