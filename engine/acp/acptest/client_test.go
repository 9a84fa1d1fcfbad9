package acptest

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
)

// agentEnd is the agent's side of a pipe pair: the test reads what the
// client wrote and writes what an agent would.
type agentEnd struct {
	lines *bufio.Scanner
	out   *io.PipeWriter
}

// newPair connects a Client to an agent end the test drives by hand.
func newPair(t testing.TB, h Handler) (*Client, *agentEnd) {
	toClientR, toClientW := io.Pipe()
	toAgentR, toAgentW := io.Pipe()
	c := NewClient(t, toClientR, toAgentW, h)
	a := &agentEnd{lines: bufio.NewScanner(toAgentR), out: toClientW}
	t.Cleanup(func() {
		_ = toClientW.Close()
		<-c.Done()
		_ = toAgentR.Close()
	})
	return c, a
}

// send writes one raw line as the agent.
func (a *agentEnd) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(a.out, line+"\n"); err != nil {
		t.Fatalf("agent write: %v", err)
	}
}

// read decodes the next message the client wrote.
func (a *agentEnd) read(t *testing.T) map[string]json.RawMessage {
	t.Helper()
	if !a.lines.Scan() {
		t.Fatalf("the client wrote nothing more: %v", a.lines.Err())
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(a.lines.Bytes(), &m); err != nil {
		t.Fatalf("the client wrote a line that is not JSON: %q", a.lines.Text())
	}
	return m
}

func TestCallReturnsTheAgentsResultAndError(t *testing.T) {
	c, a := newPair(t, nil)
	type result struct {
		SessionID string `json:"sessionId"`
	}
	got := make(chan error, 2)
	var r result
	go func() { got <- c.Call("session/new", map[string]any{"cwd": "/w"}, &r) }()
	req := a.read(t)
	if string(req["method"]) != `"session/new"` || string(req["id"]) != "1" || string(req["jsonrpc"]) != `"2.0"` {
		t.Fatalf("request = %v", req)
	}
	a.send(t, `{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s-1"}}`)
	if err := <-got; err != nil || r.SessionID != "s-1" {
		t.Fatalf("Call = %v, %+v; want the agent's session id", err, r)
	}

	go func() { got <- c.Call("session/prompt", nil, nil) }()
	req = a.read(t)
	a.send(t, `{"jsonrpc":"2.0","id":`+string(req["id"])+`,"error":{"code":-32602,"message":"no such session"}}`)
	err := <-got
	if err == nil || err.Error() != "session/prompt: no such session (-32602)" {
		t.Fatalf("Call error = %v; want the agent's message and code", err)
	}
}

func TestCallEndsWhenTheAgentCloses(t *testing.T) {
	c, a := newPair(t, nil)
	got := make(chan error, 1)
	go func() { got <- c.Call("initialize", nil, nil) }()
	a.read(t)
	_ = a.out.Close()
	if err := <-got; err == nil || !strings.Contains(err.Error(), "closed the connection") {
		t.Fatalf("Call after the agent closed = %v", err)
	}
}

func TestAgentRequestsAreAnsweredByTheHandler(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	c, a := newPair(t, func(method string, params json.RawMessage) (any, error) {
		mu.Lock()
		seen = append(seen, method+" "+string(params))
		mu.Unlock()
		switch method {
		case "fs/read_text_file":
			return map[string]string{"content": "hello"}, nil
		case "session/request_permission":
			return nil, nil
		}
		return nil, errors.New("not offered")
	})
	// Each answer is read before the next request goes, so the order
	// of the replies is known.
	a.send(t, `{"jsonrpc":"2.0","id":7,"method":"fs/read_text_file","params":{"path":"/w/a"}}`)
	if m := a.read(t); string(m["id"]) != "7" || string(m["result"]) != `{"content":"hello"}` {
		t.Fatalf("reply = %v", m)
	}
	a.send(t, `{"jsonrpc":"2.0","id":"p","method":"session/request_permission","params":{}}`)
	if m := a.read(t); string(m["id"]) != `"p"` || string(m["result"]) != `{}` {
		t.Fatalf("a nil result must still be an object: %v", m)
	}
	a.send(t, `{"jsonrpc":"2.0","id":8,"method":"terminal/create","params":{}}`)
	m := a.read(t)
	var e struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	if err := json.Unmarshal(m["error"], &e); err != nil || e.Code != -32603 || e.Message != "not offered" || m["result"] != nil {
		t.Fatalf("a handler error must go back as a JSON-RPC error: %v", m)
	}
	if c.Requests("fs/read_text_file") != 1 || c.Requests("terminal/create") != 1 || c.Requests("session/prompt") != 0 {
		t.Fatalf("request counts wrong")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != 3 || seen[0] != `fs/read_text_file {"path":"/w/a"}` {
		t.Fatalf("handler saw %q", seen)
	}
}

func TestUpdatesAreKeptInOrderAndAwaited(t *testing.T) {
	c, a := newPair(t, nil)
	a.send(t, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"text":"hi"}}}}`)
	a.send(t, `{"jsonrpc":"2.0","method":"$/cancel_request","params":{"id":3}}`)
	// Sent from another goroutine while the test already waits for it.
	go func() {
		_, _ = io.WriteString(a.out, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[]}}}`+"\n")
	}()
	u, i := c.WaitUpdate(0, func(u Update) bool { return u.Kind == "plan" })
	if i != 1 || u.SessionID != "s" {
		t.Fatalf("WaitUpdate = %+v at %d", u, i)
	}
	first := c.Updates()[0]
	var chunk struct {
		Content struct{ Text string } `json:"content"`
	}
	if first.Kind != "agent_message_chunk" || first.Field(&chunk) != nil || chunk.Content.Text != "hi" {
		t.Fatalf("first update = %+v", first)
	}
	// A response nobody waits for is noted and dropped.
	a.send(t, `{"jsonrpc":"2.0","id":99,"result":{}}`)
	a.send(t, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"end"}}}`)
	c.WaitUpdate(2, func(u Update) bool { return u.Kind == "end" })
	want := []string{"session/update", "$/cancel_request", "session/update", "response 99", "session/update"}
	if got := c.Arrivals(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("Arrivals = %q, want %q", got, want)
	}
}

func TestNotifyWritesANotification(t *testing.T) {
	c, a := newPair(t, nil)
	go c.Notify("session/cancel", map[string]string{"sessionId": "s"})
	m := a.read(t)
	if _, hasID := m["id"]; hasID || string(m["method"]) != `"session/cancel"` || string(m["params"]) != `{"sessionId":"s"}` {
		t.Fatalf("notification = %v", m)
	}
}

// recorder keeps the errors the client reports about the agent.
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

func TestAGarbledAgentLineIsReportedNotFollowed(t *testing.T) {
	rec := &recorder{TB: t}
	c, a := newPair(rec, nil)
	a.send(t, `Content-Length: 12`)
	a.send(t, `{"jsonrpc":"2.0","method":"session/update","params":"not an object"}`)
	a.send(t, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"ok"}}}`)
	c.WaitUpdate(0, func(u Update) bool { return u.Kind == "ok" })
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.errors) != 2 || !strings.Contains(rec.errors[0], "not JSON") || !strings.Contains(rec.errors[1], "session/update params") {
		t.Fatalf("errors = %q", rec.errors)
	}
	if n := len(c.Updates()); n != 1 {
		t.Fatalf("%d updates kept; the garbled ones must not count", n)
	}
}
