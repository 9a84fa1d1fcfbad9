package jsonrpc

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// testTimeout guards against hangs only; no test asserts on durations.
const testTimeout = 10 * time.Second

// funcHandler answers requests with request and records notifications.
type funcHandler struct {
	request func(ctx context.Context, method string, params json.RawMessage) (any, func(), error)
	notes   chan string
}

func (h *funcHandler) Request(ctx context.Context, method string, params json.RawMessage) (any, func(), error) {
	return h.request(ctx, method, params)
}

func (h *funcHandler) Notification(method string, params json.RawMessage) {
	h.notes <- method + " " + string(params)
}

// pair is two connections talking over pipes, both serving; stop closes
// both directions and waits for the readers and handlers to end.
type pair struct {
	a, b         *Conn
	aOut, bOut   *io.PipeWriter
	aDone, bDone chan struct{}
}

func newPair(t *testing.T, ha, hb Handler, ob Options) *pair {
	t.Helper()
	aToB, aOut := io.Pipe()
	bToA, bOut := io.Pipe()
	p := &pair{aOut: aOut, bOut: bOut, aDone: make(chan struct{}), bDone: make(chan struct{})}
	p.a = NewConn(aOut, ha, Options{})
	p.b = NewConn(bOut, hb, ob)
	go func() { defer close(p.aDone); _ = p.a.Serve(context.Background(), bToA) }() // ends when bOut closes
	go func() { defer close(p.bDone); _ = p.b.Serve(context.Background(), aToB) }() // ends when aOut closes
	t.Cleanup(p.stop)
	return p
}

func (p *pair) stop() {
	p.aOut.Close()
	p.bOut.Close()
	<-p.aDone
	<-p.bDone
	p.a.Wait()
	p.b.Wait()
}

func quiet() *funcHandler {
	return &funcHandler{notes: make(chan string, 8), request: func(context.Context, string, json.RawMessage) (any, func(), error) {
		return nil, nil, errors.New("unexpected request")
	}}
}

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestCallsAndNotificationsBothWays: a call's result comes back decoded;
// a notification reaches the peer's handler; the handler's after runs
// once the response is written.
func TestCallsAndNotificationsBothWays(t *testing.T) {
	after := make(chan struct{})
	hb := quiet()
	hb.request = func(_ context.Context, method string, params json.RawMessage) (any, func(), error) {
		var p struct{ N int }
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, nil, InvalidParams("bad params: %v", err)
		}
		return map[string]any{"method": method, "twice": 2 * p.N}, func() { close(after) }, nil
	}
	p := newPair(t, quiet(), hb, Options{})
	var got struct {
		Method string
		Twice  int
	}
	if err := p.a.Call(context.Background(), "double", map[string]int{"n": 21}, &got); err != nil {
		t.Fatal(err)
	}
	if got.Method != "double" || got.Twice != 42 {
		t.Fatalf("result %+v, want double and 42", got)
	}
	<-after
	if err := p.a.Notify("session/update", map[string]string{"k": "v"}); err != nil {
		t.Fatal(err)
	}
	if note := <-hb.notes; note != `session/update {"k":"v"}` {
		t.Fatalf("notification %q", note)
	}
	// A nil result is an empty object, which a nil destination ignores.
	hb.request = func(context.Context, string, json.RawMessage) (any, func(), error) { return nil, nil, nil }
	if err := p.a.Call(context.Background(), "nothing", nil, nil); err != nil {
		t.Fatal(err)
	}
}

// TestHandlerErrorsKeepTheirCode: an *Error reaches the caller with its
// code; any other error is internal; a result that cannot be encoded is
// an internal error, not a broken connection; an answer the caller
// cannot decode is its error.
func TestHandlerErrorsKeepTheirCode(t *testing.T) {
	hb := quiet()
	hb.request = func(_ context.Context, method string, _ json.RawMessage) (any, func(), error) {
		switch method {
		case "missing":
			return nil, nil, &Error{Code: CodeNotFound, Message: "no such session"}
		case "unencodable":
			return func() {}, nil, nil
		case "text":
			return "a string", nil, nil
		}
		return nil, func() { t.Error("after ran for a failed request") }, errors.New("disk on fire")
	}
	p := newPair(t, quiet(), hb, Options{})
	ctx := context.Background()
	for method, code := range map[string]int{"missing": CodeNotFound, "fails": CodeInternal, "unencodable": CodeInternal} {
		err := p.a.Call(ctx, method, nil, nil)
		var re *Error
		if !errors.As(err, &re) || re.Code != code {
			t.Fatalf("%s: %v, want code %d", method, err, code)
		}
	}
	var n int
	if err := p.a.Call(ctx, "text", nil, &n); err == nil || !strings.Contains(err.Error(), "decode the answer") {
		t.Fatalf("a string decoded into an int: %v", err)
	}
	if err := p.a.Call(ctx, "x", func() {}, nil); err == nil {
		t.Fatal("params that cannot be encoded were sent")
	}
	if err := p.a.Notify("x", func() {}); err == nil {
		t.Fatal("notification params that cannot be encoded were sent")
	}
}

// TestCancelledCallCancelsThePeersRequest: when the caller's context
// ends, the peer's handler sees its context cancelled through
// $/cancel_request, and the call returns the context's error.
func TestCancelledCallCancelsThePeersRequest(t *testing.T) {
	started, cancelled := make(chan struct{}), make(chan struct{})
	hb := quiet()
	hb.request = func(ctx context.Context, _ string, _ json.RawMessage) (any, func(), error) {
		close(started)
		select {
		case <-ctx.Done():
			close(cancelled)
			return nil, nil, ctx.Err()
		case <-time.After(testTimeout):
			return nil, nil, errors.New("never cancelled")
		}
	}
	p := newPair(t, quiet(), hb, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- p.a.Call(ctx, "prompt", nil, nil) }()
	<-started
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled call: %v", err)
	}
	select {
	case <-cancelled:
	case <-time.After(testTimeout):
		t.Fatal("the peer's handler was not cancelled")
	}
}

// TestCallEndsWhenThePeerGoes: a call waiting for an answer that cannot
// come (the peer's side closed) ends with ErrClosed, never a hang; a
// write after the peer stopped reading fails, and keeps failing.
func TestCallEndsWhenThePeerGoes(t *testing.T) {
	started := make(chan struct{})
	hb := quiet()
	hb.request = func(ctx context.Context, _ string, _ json.RawMessage) (any, func(), error) {
		close(started)
		<-ctx.Done()
		return nil, nil, ctx.Err()
	}
	p := newPair(t, quiet(), hb, Options{})
	errc := make(chan error, 1)
	go func() { errc <- p.a.Call(context.Background(), "prompt", nil, nil) }()
	<-started
	p.bOut.Close() // a reads EOF: the peer is gone
	if err := <-errc; !errors.Is(err, ErrClosed) {
		t.Fatalf("call to a gone peer: %v", err)
	}
	p.aOut.CloseWithError(errors.New("broken pipe"))
	<-p.bDone
	first := p.a.Notify("late", nil)
	if first == nil || p.a.Notify("later", nil) != first {
		t.Fatalf("writes to a closed pipe: %v", first)
	}
}

// rawPeer is a connection under test read and written as raw lines.
type rawPeer struct {
	in    *io.PipeWriter
	out   *bufio.Scanner
	done  chan error
	conn  *Conn
	noted chan error
}

func newRawPeer(t *testing.T, h Handler, max int) *rawPeer {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	r := &rawPeer{in: inW, out: bufio.NewScanner(outR), done: make(chan error, 1), noted: make(chan error, 8)}
	r.conn = NewConn(outW, h, Options{MaxMessageBytes: max, Malformed: func(err error) { r.noted <- err }})
	go func() { r.done <- r.conn.Serve(context.Background(), inR) }() // ends when in closes
	t.Cleanup(func() {
		inW.Close()
		<-r.done
		r.conn.Wait()
		outW.Close()
	})
	return r
}

// exchange writes line and reads the one response line.
func (r *rawPeer) exchange(t *testing.T, line string) message {
	t.Helper()
	if _, err := io.WriteString(r.in, line+"\n"); err != nil {
		t.Fatal(err)
	}
	if !r.out.Scan() {
		t.Fatalf("no answer to %.40q", line)
	}
	var m message
	if err := json.Unmarshal(r.out.Bytes(), &m); err != nil {
		t.Fatalf("answer %q: %v", r.out.Bytes(), err)
	}
	return m
}

// TestMalformedLinesAreAnsweredAndTheConnectionLives: a line that is not
// JSON, a message with neither method nor id, and a line over the bound
// are each answered with an error (and told to Malformed); a request
// after them is still served.
func TestMalformedLinesAreAnsweredAndTheConnectionLives(t *testing.T) {
	h := quiet()
	h.request = func(_ context.Context, method string, _ json.RawMessage) (any, func(), error) {
		return method, nil, nil
	}
	r := newRawPeer(t, h, 256)
	for _, c := range []struct {
		line string
		code int
	}{
		{"{not json", CodeParse},
		{`{"jsonrpc":"2.0"}`, CodeInvalidRequest},
		{`{"jsonrpc":"2.0","id":1,"method":"` + strings.Repeat("m", 300) + `"}`, CodeInvalidRequest},
	} {
		m := r.exchange(t, c.line)
		if m.Error == nil || m.Error.Code != c.code || string(m.ID) != "null" {
			t.Fatalf("%.20q answered %+v, want error %d with a null id", c.line, m, c.code)
		}
		if noted := <-r.noted; noted == nil {
			t.Fatal("Malformed was not told")
		}
	}
	m := r.exchange(t, `{"jsonrpc":"2.0","id":"x","method":"ping"}`)
	if m.Error != nil || string(m.Result) != `"ping"` || string(m.ID) != `"x"` {
		t.Fatalf("request after malformed lines: %+v", m)
	}
	// A cancel naming no request, or malformed, changes nothing.
	if _, err := io.WriteString(r.in, `{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":9}}`+"\n"+
		`{"jsonrpc":"2.0","method":"$/cancel_request","params":[1]}`+"\n"); err != nil {
		t.Fatal(err)
	}
	if m := r.exchange(t, `{"jsonrpc":"2.0","id":2,"method":"pong"}`); string(m.Result) != `"pong"` {
		t.Fatalf("request after stray cancels: %+v", m)
	}
	// A response nobody waits for is dropped.
	if _, err := io.WriteString(r.in, `{"jsonrpc":"2.0","id":77,"result":{}}`+"\n"); err != nil {
		t.Fatal(err)
	}
	if m := r.exchange(t, `{"jsonrpc":"2.0","id":3,"method":"still"}`); string(m.Result) != `"still"` {
		t.Fatalf("request after a stray response: %+v", m)
	}
}

// TestOverLongMessagesAreNotSent: a message over the bound is refused
// before it is written, so the peer never sees half of one.
func TestOverLongMessagesAreNotSent(t *testing.T) {
	r := newRawPeer(t, quiet(), 64)
	if err := r.conn.Notify("big", strings.Repeat("x", 100)); err == nil || !strings.Contains(err.Error(), "over the 64 byte limit") {
		t.Fatalf("a 100-byte notification under a 64-byte bound: %v", err)
	}
}

// TestWaitRefusesNewRequests: once Wait has begun, a new request is
// answered "shutting down" instead of started, and Wait returns when
// the requests already running end.
func TestWaitRefusesNewRequests(t *testing.T) {
	started, release := make(chan struct{}), make(chan struct{})
	h := quiet()
	h.request = func(_ context.Context, method string, _ json.RawMessage) (any, func(), error) {
		if method != "slow" {
			return "early", nil, nil
		}
		close(started)
		<-release
		return "done", nil, nil
	}
	r := newRawPeer(t, h, 0)
	if _, err := io.WriteString(r.in, `{"jsonrpc":"2.0","id":1,"method":"slow"}`+"\n"); err != nil {
		t.Fatal(err)
	}
	<-started
	var waited sync.WaitGroup
	waited.Add(1)
	go func() { defer waited.Done(); r.conn.Wait() }() // ends when slow returns
	// Wait sets stopping on its goroutine: until it has, a request is
	// still served ("early"); after, each is refused.
	for id := 2; ; id++ {
		line := `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"late"}`
		if _, err := io.WriteString(r.in, line+"\n"); err != nil {
			t.Fatal(err)
		}
		if !r.out.Scan() {
			t.Fatal("no answer")
		}
		var m message
		if err := json.Unmarshal(r.out.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		if m.Error != nil && strings.Contains(m.Error.Message, "shutting down") {
			break
		}
		if m.Error == nil && string(m.Result) == `"done"` {
			t.Fatal("slow answered before it was released")
		}
	}
	close(release)
	if !r.out.Scan() || !strings.Contains(r.out.Text(), `"done"`) {
		t.Fatalf("slow's answer: %q", r.out.Text())
	}
	waited.Wait()
}
