package llm_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/llm"
)

// A reply that goes on while baton is stopped (ctrl+z during a reply,
// fg later) is read when it continues: the stop is longer than the idle
// timeout, but the silence was the process's, not the endpoint's. The
// test stops its own process with SIGSTOP, which a shell would answer
// with fg; here a shell started beforehand sends the SIGCONT.
func TestAReplyOutlastsAStopOfTheProcess(t *testing.T) {
	first, resumed := make(chan struct{}), make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, `data: {"choices":[{"index":0,"delta":{"content":"before "}}]}`+"\n\n")
		w.(http.Flusher).Flush()
		select {
		case <-resumed:
		case <-r.Context().Done():
			return
		}
		// The endpoint takes a moment, as one does: the watchdog's
		// overdue timer has had its turn by then.
		time.Sleep(20 * time.Millisecond)
		_, _ = io.WriteString(w, `data: {"choices":[{"index":0,"delta":{"content":"after"},"finish_reason":"stop"}]}`+"\n\ndata: [DONE]\n\n")
	}))
	defer srv.Close()
	client := llm.NewClient(llm.Config{APIKey: "k", BaseURL: srv.URL + "/v1", Timeouts: llm.Timeouts{Connect: time.Minute, FirstByte: time.Minute, Idle: 50 * time.Millisecond}})
	go func() {
		<-first
		cont := exec.Command("sh", "-c", "sleep 0.5; kill -CONT "+strconv.Itoa(os.Getpid()))
		if err := cont.Start(); err != nil {
			t.Error(err)
			close(resumed)
			return
		}
		_ = syscall.Kill(os.Getpid(), syscall.SIGSTOP)
		_ = cont.Wait() // returns once the SIGCONT was sent
		close(resumed)
	}()
	once := false
	h := llm.Handler{OnText: func(string) {
		if !once {
			once = true
			close(first)
		}
	}}
	req := openai.ChatCompletionRequest{Model: "m", Messages: []openai.ChatCompletionMessage{{Role: "user", Content: "hi"}}}
	resp, err := llm.Stream(context.Background(), client, req, h)
	if err != nil {
		t.Fatalf("the stop was taken for the endpoint's silence: %v", err)
	}
	if resp.Content != "before after" {
		t.Fatalf("content %q", resp.Content)
	}
}
