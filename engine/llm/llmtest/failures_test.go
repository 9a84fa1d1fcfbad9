package llmtest_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/llm"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

// recorder keeps the errors the server reports against the test.
type recorder struct {
	testing.TB
	mu     sync.Mutex
	errors []string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func (r *recorder) reported() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.errors...)
}

func TestServeModelsListsTheIDsAndCountsTheAsks(t *testing.T) {
	srv := llmtest.NewServer(t, func(_ *llmtest.Request, w *llmtest.Writer) { w.Text("ok") })
	if _, err := srv.Client().ListModels(context.Background()); err == nil {
		t.Fatal("the model list answered before ServeModels; want a 404, as some endpoints give")
	}
	srv.ServeModels("gpt-a", "gpt-b")
	list, err := srv.Client().ListModels(context.Background())
	if err != nil {
		t.Fatalf("ListModels: %v", err)
	}
	if len(list.Models) != 2 || list.Models[0].ID != "gpt-a" || list.Models[1].ID != "gpt-b" {
		t.Fatalf("models = %+v", list.Models)
	}
	if n := srv.ModelListRequests(); n != 2 {
		t.Fatalf("ModelListRequests = %d, want 2", n)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Fatalf("a model list was recorded as %d chat requests", n)
	}
}

func TestErrorAndBodyRepliesReachTheClient(t *testing.T) {
	srv := llmtest.NewServer(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch r.LastUser() {
		case "key":
			w.Header().Set("Retry-After", "7")
			w.Error(http.StatusUnauthorized, `{"error":{"message":"invalid api key"}}`)
		case "proxy":
			w.Body(http.StatusBadGateway, "text/html", "<html><body>Bad Gateway</body></html>")
		}
	})
	ask := func(text string) error {
		req := openai.ChatCompletionRequest{Model: "m", Messages: []openai.ChatCompletionMessage{{Role: "user", Content: text}}}
		_, err := llm.Stream(context.Background(), srv.ClientWith(llm.Timeouts{Connect: time.Minute, FirstByte: time.Minute, Idle: time.Minute}), req, llm.Handler{})
		return err
	}
	var apiErr *openai.APIError
	if err := ask("key"); !errors.As(err, &apiErr) || apiErr.HTTPStatusCode != http.StatusUnauthorized || apiErr.Message != "invalid api key" {
		t.Fatalf("Error reply = %v", err)
	}
	var reqErr *openai.RequestError
	if err := ask("proxy"); !errors.As(err, &reqErr) || reqErr.HTTPStatusCode != http.StatusBadGateway {
		t.Fatalf("Body reply = %v", err)
	}
	if got := srv.Requests()[0].Header.Get("Authorization"); got != "Bearer "+llmtest.Key {
		t.Fatalf("Authorization = %q", got)
	}
}

func TestWriterRefusesAStatusAfterTheStreamBegan(t *testing.T) {
	rec := &recorder{TB: t}
	srv := llmtest.NewServer(rec, func(_ *llmtest.Request, w *llmtest.Writer) {
		w.Headers()
		w.Headers() // a second call sends nothing more
		w.Error(http.StatusInternalServerError, `{}`)
		w.Body(http.StatusOK, "text/plain", "late")
		w.Chunk(func() {}) // not JSON
		w.Text("still streamed")
	})
	resp, err := llm.Stream(context.Background(), srv.Client(), conversation(), llm.Handler{})
	if err != nil || resp.Content != "still streamed" {
		t.Fatalf("Stream = %+v, %v", resp, err)
	}
	got := strings.Join(rec.reported(), "\n")
	for _, want := range []string{"Error(500) after the stream began", "Body(200) after the stream began", "marshal chunk"} {
		if !strings.Contains(got, want) {
			t.Errorf("reported %q, want %q", got, want)
		}
	}
}

func TestRawChunksAndACutStream(t *testing.T) {
	srv := llmtest.NewServer(t, func(r *llmtest.Request, w *llmtest.Writer) {
		if r.Index == 0 {
			w.Raw(": keep-alive")
			w.Chunk(`{"id":"x","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"verbatim"}}]}`)
			w.Chunk([]byte(`{"id":"x","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":" bytes"},"finish_reason":"stop"}]}`))
			w.Done()
			return
		}
		w.Chunk(`{"id":"x","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"cut "}}]}`)
		w.Partial(`data: {"id":"x","choices":[{"delta":{"content":"mid`)
	})
	resp, err := llm.Stream(context.Background(), srv.Client(), conversation(), llm.Handler{})
	if err != nil || resp.Content != "verbatim bytes" {
		t.Fatalf("raw stream = %+v, %v", resp, err)
	}
	resp, err = llm.Stream(context.Background(), srv.Client(), conversation(), llm.Handler{})
	if err == nil {
		t.Fatalf("a stream cut inside an event succeeded: %+v", resp)
	}
}

func TestAnUndecodableRequestIsRefusedAndReported(t *testing.T) {
	rec := &recorder{TB: t}
	srv := llmtest.NewServer(rec, func(_ *llmtest.Request, w *llmtest.Writer) { w.Text("ok") })
	resp, err := http.Post(srv.URL+"/chat/completions", "application/json", strings.NewReader(`{"messages": 7}`))
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest || len(srv.Requests()) != 0 {
		t.Fatalf("status %d with %d requests recorded", resp.StatusCode, len(srv.Requests()))
	}
	if got := rec.reported(); len(got) != 1 || !strings.Contains(got[0], "decode request") {
		t.Fatalf("reported %q", got)
	}
}

func TestStrictHistory(t *testing.T) {
	call := func(ids ...string) openai.ChatCompletionMessage {
		m := openai.ChatCompletionMessage{Role: "assistant"}
		for _, id := range ids {
			m.ToolCalls = append(m.ToolCalls, openai.ToolCall{ID: id, Type: "function"})
		}
		return m
	}
	result := func(id string) openai.ChatCompletionMessage {
		return openai.ChatCompletionMessage{Role: "tool", ToolCallID: id}
	}
	user := openai.ChatCompletionMessage{Role: "user", Content: "go"}
	for _, c := range []struct {
		name     string
		messages []openai.ChatCompletionMessage
		want     string
	}{
		{"well formed", []openai.ChatCompletionMessage{user, call("a", "b"), result("b"), result("a"), user, call("c"), result("c")}, ""},
		{"result without its call", []openai.ChatCompletionMessage{user, result("a")}, `message 1: tool result "a" does not follow`},
		{"result after a user message", []openai.ChatCompletionMessage{call("a"), result("a"), user, result("a")}, `message 3: tool result "a"`},
		{"call left unanswered", []openai.ChatCompletionMessage{call("a"), user}, "message 1: calls [a] have no result"},
		{"repeated id", []openai.ChatCompletionMessage{call("a"), result("a"), call("a"), result("a")}, `message 2: call id "a" repeats`},
		{"last call unanswered", []openai.ChatCompletionMessage{user, call("z")}, "the last calls [z] have no result"},
	} {
		err := (&llmtest.Request{Body: openai.ChatCompletionRequest{Messages: c.messages}}).StrictHistory()
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

func TestResetFirstResetsOnlyTheFirstConnections(t *testing.T) {
	var ln *llmtest.ResettingListener
	srv := llmtest.NewServerOn(t, func(inner net.Listener) net.Listener {
		ln = llmtest.ResetFirst(inner, 1)
		return ln
	}, func(_ *llmtest.Request, w *llmtest.Writer) { w.Text("served") })
	client := srv.Client()
	if _, err := llm.Stream(context.Background(), client, conversation(), llm.Handler{}); err == nil {
		t.Fatal("the first connection was served; want a reset")
	}
	resp, err := llm.Stream(context.Background(), client, conversation(), llm.Handler{})
	if err != nil || resp.Content != "served" {
		t.Fatalf("second request = %+v, %v", resp, err)
	}
	if ln.Resets() != 1 || ln.Accepted() != 2 {
		t.Fatalf("resets %d, accepted %d; want 1 and 2", ln.Resets(), ln.Accepted())
	}

	// ResetNext arms it again, for a raw connection here: the reset
	// comes once the client has written its request.
	ln.ResetNext(1)
	conn, err := net.Dial("tcp", strings.TrimPrefix(strings.TrimSuffix(srv.URL, "/v1"), "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, "POST /v1/chat/completions HTTP/1.1\r\n"); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Read(make([]byte, 1)); err == nil || !strings.Contains(err.Error(), "reset") {
		t.Fatalf("read after the request = %v, want a connection reset", err)
	}
	if ln.Resets() != 2 {
		t.Fatalf("resets = %d, want 2", ln.Resets())
	}
}

func TestClosingAResettingListenerReleasesAWaitingConnection(t *testing.T) {
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := llmtest.ResetFirst(inner, 1)
	conn, err := net.Dial("tcp", inner.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	accepted := make(chan error, 1)
	go func() { // ends when Close stops the listener
		_, err := ln.Accept()
		accepted <- err
	}()
	if err := ln.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := <-accepted; !errors.Is(err, net.ErrClosed) {
		t.Fatalf("Accept after Close = %v", err)
	}
	// Whether the connection was taken before Close or still queued, the
	// client never gets a reply.
	if n, _ := conn.Read(make([]byte, 1)); n != 0 {
		t.Fatal("a held connection was answered")
	}
}
