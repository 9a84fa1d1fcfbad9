package demo

import (
	"bufio"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestClientCancelEndsTheHandler checks that a reply stops as soon as the
// client goes away, while the server keeps running: the handler is parked
// in an hour-long chunk delay that only the request's end can cut short.
func TestClientCancelEndsTheHandler(t *testing.T) {
	s, err := StartWith(context.Background(), Options{ChunkDelay: time.Hour})
	if err != nil {
		t.Fatalf("StartWith: %v", err)
	}
	defer s.Close()
	ctx, cancel := context.WithCancel(context.Background())
	body := `{"model":"baton-demo","stream":true,"messages":[{"role":"user","content":"hi"}]}`
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.URL+"/chat/completions", strings.NewReader(body))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("post: %v", err)
	}
	defer resp.Body.Close()
	if line, err := bufio.NewReader(resp.Body).ReadString('\n'); err != nil || !strings.HasPrefix(line, "data: ") {
		t.Fatalf("first line %q: %v", line, err)
	}
	cancel()
	ended := make(chan struct{})
	go func() {
		s.handlers.Wait()
		close(ended)
	}()
	select {
	case <-ended:
	case <-time.After(20 * time.Second):
		t.Fatal("the handler kept running after the client went away")
	}
}
