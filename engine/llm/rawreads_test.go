package llm

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httptrace"
	"strings"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"
	"go.uber.org/goleak"

	"github.com/seed-e4e525a6/baton/engine/rawio"
)

// lockstepSSE answers with one text chunk per word, each sent only once
// the client has taken the one before, so every read after the first
// finds nothing and waits on the poller.
func lockstepSSE(words []string, taken <-chan struct{}) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		chunk := func(delta, finish string) {
			fmt.Fprintf(w, `data: {"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{%s},"finish_reason":%s}]}`+"\n\n", delta, finish)
			w.(http.Flusher).Flush()
		}
		chunk(`"role":"assistant","content":""`, "null")
		for _, word := range words {
			chunk(fmt.Sprintf(`"content":%q`, word), "null")
			select {
			case <-taken:
			case <-r.Context().Done():
				return
			}
		}
		chunk("", `"stop"`)
		fmt.Fprint(w, "data: [DONE]\n\n")
	}
}

// The real go-openai client streams through the default transport's raw
// reads under TLS, over HTTP/1 and HTTP/2, every read after the first
// waiting on the poller for its chunk; the connection it used is one
// that reads raw (and so can be held quiet), and nothing is left running.
// (Plain HTTP/1 against llmtest: TestStreamReadsRawThroughTheDefaultTransport.)
func TestTheRealClientStreamsThroughRawReadsUnderTLS(t *testing.T) {
	for _, c := range []struct {
		name  string
		http2 bool
	}{{"http/1", false}, {"http/2", true}} {
		t.Run(c.name, func(t *testing.T) {
			leaks := goleak.IgnoreCurrent()
			words := strings.Fields("one two three four five six")
			taken := make(chan struct{})
			srv := httptest.NewUnstartedServer(lockstepSSE(words, taken))
			srv.EnableHTTP2 = c.http2
			tr := defaultTransport(5 * time.Second)
			srv.StartTLS()
			tr.TLSClientConfig = srv.Client().Transport.(*http.Transport).TLSClientConfig.Clone()
			client := NewClient(Config{APIKey: "k", BaseURL: srv.URL + "/v1", HTTPClient: &http.Client{Transport: tr}})
			var conn net.Conn
			ctx := httptrace.WithClientTrace(context.Background(), &httptrace.ClientTrace{
				GotConn: func(info httptrace.GotConnInfo) { conn = info.Conn },
			})
			var got []string
			h := Handler{OnText: func(s string) {
				got = append(got, s)
				taken <- struct{}{}
			}}
			req := openai.ChatCompletionRequest{Model: "m", Messages: []openai.ChatCompletionMessage{{Role: "user", Content: "hi"}}}
			resp, err := Stream(ctx, client, req, h)
			if err != nil {
				t.Fatal(err)
			}
			if resp.Content != strings.Join(words, "") || len(got) != len(words) {
				t.Fatalf("content %q in %d pieces, want %q in %d", resp.Content, len(got), strings.Join(words, ""), len(words))
			}
			if conn == nil || !rawio.Quiet(conn, 1) {
				t.Fatalf("the stream's connection %T does not read raw", conn)
			}
			if tc, ok := conn.(*tls.Conn); !ok || (tc.ConnectionState().NegotiatedProtocol == "h2") != c.http2 {
				t.Fatalf("the stream went over %T, want TLS with HTTP/2 %v", conn, c.http2)
			}
			tr.CloseIdleConnections()
			srv.Close()
			goleak.VerifyNone(t, leaks)
		})
	}
}
