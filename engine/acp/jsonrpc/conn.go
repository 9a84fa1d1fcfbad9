// Package jsonrpc is one JSON-RPC 2.0 connection over newline-delimited
// JSON, both ways, as the Agent Client Protocol uses it: baton serving an
// editor (engine/acp) and baton driving another ACP agent as a child
// (engine/child/acpagent) share it. Every message is bounded; a line that
// is not JSON-RPC is answered with an error and the connection lives on.
package jsonrpc

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
)

// MaxMessageBytes bounds one message either way, as the official SDK
// does, unless Options lower it: a longer line is refused and skipped,
// never buffered whole.
const MaxMessageBytes = 32 << 20

// The JSON-RPC error codes ACP uses.
const (
	CodeParse          = -32700
	CodeInvalidRequest = -32600
	CodeNoMethod       = -32601
	CodeInvalidParams  = -32602
	CodeInternal       = -32603
	// CodeNotFound is ACP's "resource not found" (a session, a file).
	CodeNotFound = -32002
)

// Error is a JSON-RPC error: what a handler returns to choose the code,
// and what a call returns when the peer refused.
type Error struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

// Error implements error.
func (e *Error) Error() string { return fmt.Sprintf("%s (%d)", e.Message, e.Code) }

// InvalidParams is the error for params a handler cannot use.
func InvalidParams(format string, args ...any) *Error {
	return &Error{Code: CodeInvalidParams, Message: fmt.Sprintf(format, args...)}
}

// message is any JSON-RPC 2.0 message; which fields are set says which
// kind it is.
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`
}

// Handler answers the peer's requests and notifications. A request's
// result is written as its response; after, when set, runs once the
// response is written (updates that must follow it).
type Handler interface {
	Request(ctx context.Context, method string, params json.RawMessage) (result any, after func(), err error)
	Notification(method string, params json.RawMessage)
}

// Options tune a connection; the zero value is the protocol's defaults.
type Options struct {
	// MaxMessageBytes bounds one message either way (0: MaxMessageBytes).
	MaxMessageBytes int
	// Malformed, when set, is told of each line that is not a JSON-RPC
	// message or is over the bound, after the peer was answered with an
	// error: a peer baton drives may be dropped for it.
	Malformed func(error)
}

// Conn is one JSON-RPC 2.0 connection over newline-delimited JSON, both
// ways: the peer's requests are answered each on a goroutine of its own
// (a prompt runs for minutes while cancel arrives), and calls to the peer
// wait for their responses, which the reader routes by id.
type Conn struct {
	h    Handler
	opts Options

	wmu  sync.Mutex
	w    io.Writer
	werr error

	mu      sync.Mutex
	nextID  int64
	pending map[string]chan message
	// inbound cancels the peer's requests still being answered, by id.
	inbound map[string]context.CancelFunc
	// closed is closed when the reader has stopped: calls waiting for a
	// response give up.
	closed chan struct{}
	// handlers counts the requests being answered; once stopping is set
	// no new one starts.
	handlers sync.WaitGroup
	stopping bool
}

// NewConn makes a connection writing to w; Serve reads.
func NewConn(w io.Writer, h Handler, opts Options) *Conn {
	if opts.MaxMessageBytes <= 0 || opts.MaxMessageBytes > MaxMessageBytes {
		opts.MaxMessageBytes = MaxMessageBytes
	}
	return &Conn{h: h, opts: opts, w: w, pending: map[string]chan message{}, inbound: map[string]context.CancelFunc{}, closed: make(chan struct{})}
}

// Serve reads messages until r ends or fails, answering requests as they
// come, each on its own goroutine (see Wait). ctx is the parent of every
// request's context, cancelled when reading ends.
func (c *Conn) Serve(ctx context.Context, r io.Reader) error {
	ctx, cancel := context.WithCancel(ctx)
	defer close(c.closed)
	defer cancel()
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := readLine(br, c.opts.MaxMessageBytes)
		switch {
		case errors.Is(err, errTooLong):
			c.malformed(&Error{Code: CodeInvalidRequest, Message: fmt.Sprintf("message longer than %d bytes", c.opts.MaxMessageBytes)})
			continue
		case errors.Is(err, io.EOF) && len(line) == 0:
			return nil
		case err != nil && !errors.Is(err, io.EOF):
			return fmt.Errorf("read message: %w", err)
		}
		if len(bytes.TrimSpace(line)) > 0 {
			c.dispatch(ctx, line)
		}
		if err != nil {
			return nil
		}
	}
}

// dispatch routes one message: a response to its waiting call, a
// notification to the handler at once, a request to a goroutine of its
// own that ends when the handler returns.
func (c *Conn) dispatch(ctx context.Context, line []byte) {
	var m message
	if err := json.Unmarshal(line, &m); err != nil {
		c.malformed(&Error{Code: CodeParse, Message: "not a JSON-RPC message: " + err.Error()})
		return
	}
	switch {
	case m.Method == "" && len(m.ID) > 0:
		c.deliver(m)
	case m.Method == "":
		c.malformed(&Error{Code: CodeInvalidRequest, Message: "a message needs a method or an id"})
	case len(m.ID) == 0 || string(m.ID) == "null":
		if m.Method == "$/cancel_request" {
			c.cancelInbound(m.Params)
			return
		}
		c.h.Notification(m.Method, m.Params)
	default:
		reqCtx, cancel := context.WithCancel(ctx)
		key := string(m.ID)
		c.mu.Lock()
		if c.stopping {
			c.mu.Unlock()
			cancel()
			c.reply(m.ID, nil, &Error{Code: CodeInternal, Message: "baton is shutting down"})
			return
		}
		c.inbound[key] = cancel
		c.handlers.Add(1)
		c.mu.Unlock()
		// Ends when the handler returns; its context ends with the
		// connection.
		go func() {
			defer c.handlers.Done()
			defer func() {
				c.mu.Lock()
				delete(c.inbound, key)
				c.mu.Unlock()
				cancel()
			}()
			result, after, err := c.h.Request(reqCtx, m.Method, m.Params)
			c.reply(m.ID, result, err)
			if after != nil && err == nil {
				after()
			}
		}()
	}
}

// Wait stops starting new requests and waits for those being answered.
func (c *Conn) Wait() {
	c.mu.Lock()
	c.stopping = true
	c.mu.Unlock()
	c.handlers.Wait()
}

// cancelInbound cancels the peer's request named by a $/cancel_request.
func (c *Conn) cancelInbound(params json.RawMessage) {
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if json.Unmarshal(params, &p) != nil {
		return
	}
	c.mu.Lock()
	cancel := c.inbound[string(p.RequestID)]
	c.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// deliver hands a response to the call waiting for it; a response nobody
// waits for (the call gave up) is dropped.
func (c *Conn) deliver(m message) {
	c.mu.Lock()
	ch, ok := c.pending[string(m.ID)]
	delete(c.pending, string(m.ID))
	c.mu.Unlock()
	if ok {
		ch <- m
	}
}

// malformed answers a line that is not a message baton can take, and
// tells Options.Malformed.
func (c *Conn) malformed(e *Error) {
	c.reply(nil, nil, e)
	if c.opts.Malformed != nil {
		c.opts.Malformed(e)
	}
}

// reply writes the response to request id: result, or err as a JSON-RPC
// error (an *Error keeps its code, anything else is internal).
func (c *Conn) reply(id json.RawMessage, result any, err error) {
	if id == nil {
		id = json.RawMessage("null")
	}
	m := message{JSONRPC: "2.0", ID: id}
	if err != nil {
		var re *Error
		if !errors.As(err, &re) {
			re = &Error{Code: CodeInternal, Message: err.Error()}
		}
		m.Error = re
	} else {
		if result == nil {
			result = struct{}{}
		}
		data, merr := json.Marshal(result)
		if merr != nil {
			m.Error = &Error{Code: CodeInternal, Message: "encode result: " + merr.Error()}
		} else {
			m.Result = data
		}
	}
	_ = c.write(m)
}

// Notify sends a notification.
func (c *Conn) Notify(method string, params any) error {
	data, err := json.Marshal(params)
	if err != nil {
		return fmt.Errorf("encode %s: %w", method, err)
	}
	return c.write(message{JSONRPC: "2.0", Method: method, Params: data})
}

// Call sends a request and waits for its response, decoded into result
// (nil: ignored). When ctx ends first the peer is told to stop with a
// $/cancel_request, and the call returns ctx's error; when the reader
// stops first (the peer is gone), an error saying so.
func (c *Conn) Call(ctx context.Context, method string, params, result any) error {
	data, err := json.Marshal(params)
	if err != nil {
		return fmt.Errorf("encode %s: %w", method, err)
	}
	c.mu.Lock()
	c.nextID++
	id := json.RawMessage(strconv.FormatInt(c.nextID, 10))
	ch := make(chan message, 1)
	c.pending[string(id)] = ch
	c.mu.Unlock()
	forget := func() {
		c.mu.Lock()
		delete(c.pending, string(id))
		c.mu.Unlock()
	}
	if err := c.write(message{JSONRPC: "2.0", ID: id, Method: method, Params: data}); err != nil {
		forget()
		return err
	}
	select {
	case m := <-ch:
		if m.Error != nil {
			return fmt.Errorf("%s: %w", method, m.Error)
		}
		if result == nil {
			return nil
		}
		if err := json.Unmarshal(m.Result, result); err != nil {
			return fmt.Errorf("%s: decode the answer: %w", method, err)
		}
		return nil
	case <-ctx.Done():
		forget()
		_ = c.Notify("$/cancel_request", map[string]json.RawMessage{"requestId": id})
		return ctx.Err()
	case <-c.closed:
		forget()
		return fmt.Errorf("%s: %w", method, ErrClosed)
	}
}

// write sends one message as one line. After a failed write every later
// one fails the same way: the peer is gone.
func (c *Conn) write(m message) error {
	data, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("encode message: %w", err)
	}
	if len(data) >= c.opts.MaxMessageBytes {
		return fmt.Errorf("%s: message of %d bytes is over the %d byte limit", m.Method, len(data), c.opts.MaxMessageBytes)
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.werr != nil {
		return c.werr
	}
	if _, err := c.w.Write(append(data, '\n')); err != nil {
		c.werr = fmt.Errorf("write message: %w", err)
		return c.werr
	}
	return nil
}

// ErrClosed is a call whose answer cannot come: the peer closed the
// connection.
var ErrClosed = errors.New("the peer closed the connection")

// errTooLong is a line over the limit, which readLine skipped.
var errTooLong = errors.New("line too long")

// readLine reads one line without its newline, at most max bytes; a
// longer line is read to its end and dropped, and errTooLong returned.
func readLine(r *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	tooLong := false
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > max+1 {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case tooLong && (err == nil || errors.Is(err, io.EOF)):
			return nil, errTooLong
		case err != nil:
			return line, err
		}
		return bytes.TrimSuffix(line, []byte("\n")), nil
	}
}
