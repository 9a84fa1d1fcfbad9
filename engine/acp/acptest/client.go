// Package acptest is a small ACP client for baton's Go tests: it speaks
// JSON-RPC over a pair of streams, collects the agent's session updates
// and answers the agent's requests (files, permissions, terminals) with a
// function the test writes. The tests that matter most drive baton with
// the official TypeScript SDK instead; this client serves the Go tests
// that check one behaviour at a time over a pipe.
package acptest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"sync"
	"testing"
	"time"
)

// waitLimit guards against hangs only: a wait that passes it fails the
// test instead of blocking the run. No test asserts on durations.
const waitLimit = 60 * time.Second

// Handler answers one request from the agent: its result, or an error
// sent back as a JSON-RPC error.
type Handler func(method string, params json.RawMessage) (any, error)

// Update is one session/update notification.
type Update struct {
	SessionID string
	// Kind is the update's sessionUpdate field.
	Kind string
	// Raw is the whole update object.
	Raw json.RawMessage
}

// Field decodes the update into v.
func (u Update) Field(v any) error { return json.Unmarshal(u.Raw, v) }

// Client is the client end of an ACP connection.
type Client struct {
	t       testing.TB
	w       io.Writer
	handler Handler

	wmu sync.Mutex

	mu      sync.Mutex
	changed chan struct{} // closed and replaced when updates grow
	updates []Update
	nextID  int
	pending map[string]chan response
	// requests counts the agent's requests by method.
	requests map[string]int
	// arrivals are the agent's messages in the order read.
	arrivals []string
	done     chan struct{}
}

type response struct {
	Result json.RawMessage
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
}

// NewClient starts reading the agent's messages from r; it writes to w.
// Reading ends when r does.
func NewClient(t testing.TB, r io.Reader, w io.Writer, h Handler) *Client {
	c := &Client{t: t, w: w, handler: h, changed: make(chan struct{}), pending: map[string]chan response{},
		requests: map[string]int{}, done: make(chan struct{})}
	// Ends when the agent closes its output.
	go c.read(r)
	return c
}

// Done is closed once the agent's output has ended.
func (c *Client) Done() <-chan struct{} { return c.done }

// read routes the agent's messages until r ends.
func (c *Client) read(r io.Reader) {
	defer close(c.done)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
			response
		}
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			c.t.Errorf("acptest: the agent sent a line that is not JSON: %q", sc.Text())
			continue
		}
		c.mu.Lock()
		switch {
		case m.Method != "":
			c.arrivals = append(c.arrivals, m.Method)
		default:
			c.arrivals = append(c.arrivals, "response "+string(m.ID))
		}
		c.mu.Unlock()
		switch {
		case m.Method == "session/update":
			c.addUpdate(m.Params)
		case m.Method != "" && len(m.ID) > 0:
			c.mu.Lock()
			c.requests[m.Method]++
			c.mu.Unlock()
			// Answered on their own goroutines: the agent may wait on
			// one request (a terminal) while asking another.
			go c.answer(m.ID, m.Method, m.Params)
		case m.Method != "":
			// Other notifications ($/cancel_request) need no answer.
		default:
			c.mu.Lock()
			ch := c.pending[string(m.ID)]
			delete(c.pending, string(m.ID))
			c.mu.Unlock()
			if ch != nil {
				ch <- m.response
			}
		}
	}
}

// addUpdate keeps one update and wakes the waiters.
func (c *Client) addUpdate(params json.RawMessage) {
	var n struct {
		SessionID string          `json:"sessionId"`
		Update    json.RawMessage `json:"update"`
	}
	if err := json.Unmarshal(params, &n); err != nil {
		c.t.Errorf("acptest: session/update params: %v", err)
		return
	}
	var kind struct {
		SessionUpdate string `json:"sessionUpdate"`
	}
	_ = json.Unmarshal(n.Update, &kind)
	c.mu.Lock()
	c.updates = append(c.updates, Update{SessionID: n.SessionID, Kind: kind.SessionUpdate, Raw: n.Update})
	close(c.changed)
	c.changed = make(chan struct{})
	c.mu.Unlock()
}

// answer runs the handler for one of the agent's requests and replies.
func (c *Client) answer(id json.RawMessage, method string, params json.RawMessage) {
	msg := map[string]any{"jsonrpc": "2.0", "id": id}
	result, err := c.handler(method, params)
	if err != nil {
		msg["error"] = map[string]any{"code": -32603, "message": err.Error()}
	} else {
		if result == nil {
			result = struct{}{}
		}
		msg["result"] = result
	}
	c.send(msg)
}

// Arrivals lists the agent's messages in the order they came: a
// request's or notification's method, or "response ID".
func (c *Client) Arrivals() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.arrivals...)
}

// Requests says how many requests of method the agent sent.
func (c *Client) Requests(method string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.requests[method]
}

// send writes one message.
func (c *Client) send(msg any) {
	data, err := json.Marshal(msg)
	if err != nil {
		c.t.Errorf("acptest: encode: %v", err)
		return
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, _ = c.w.Write(append(data, '\n'))
}

// Call sends a request and waits for its response, decoded into result.
func (c *Client) Call(method string, params, result any) error {
	c.mu.Lock()
	c.nextID++
	id := strconv.Itoa(c.nextID)
	ch := make(chan response, 1)
	c.pending[id] = ch
	c.mu.Unlock()
	c.send(map[string]any{"jsonrpc": "2.0", "id": json.Number(id), "method": method, "params": params})
	select {
	case r := <-ch:
		if r.Error != nil {
			return fmt.Errorf("%s: %s (%d)", method, r.Error.Message, r.Error.Code)
		}
		if result != nil {
			return json.Unmarshal(r.Result, result)
		}
		return nil
	case <-c.done:
		return fmt.Errorf("%s: the agent closed the connection", method)
	case <-time.After(waitLimit):
		return fmt.Errorf("%s: no response", method)
	}
}

// Notify sends a notification.
func (c *Client) Notify(method string, params any) {
	c.send(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// Updates returns the updates received so far.
func (c *Client) Updates() []Update {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Update(nil), c.updates...)
}

// WaitUpdate waits for an update, from the from-th on, that match
// accepts, and returns it with its index.
func (c *Client) WaitUpdate(from int, match func(Update) bool) (Update, int) {
	c.t.Helper()
	limit := time.After(waitLimit)
	for {
		c.mu.Lock()
		for i := from; i < len(c.updates); i++ {
			if match(c.updates[i]) {
				u := c.updates[i]
				c.mu.Unlock()
				return u, i
			}
		}
		from = max(from, len(c.updates))
		changed := c.changed
		c.mu.Unlock()
		select {
		case <-changed:
		case <-c.done:
			c.t.Fatal("acptest: the agent closed the connection while a test waited for an update")
		case <-limit:
			c.t.Fatal("acptest: the awaited update never came")
		}
	}
}
