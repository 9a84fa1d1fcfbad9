package llm

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"sync/atomic"
	"time"
)

// streamMarker is how Stream and the transport share one request: Stream
// says how long a line may be and reports progress to the watchdog; the
// transport records what it saw on the wire. go-openai's RecvRaw answers
// io.EOF both for "data: [DONE]" and for a connection that simply ended,
// and only the second is a cut-off reply; its errors carry neither the
// headers nor the content type. The transport runs on the goroutine that
// called Stream, so only done needs to be atomic.
type streamMarker struct {
	done    atomic.Bool // "data: [DONE]" arrived
	maxLine int         // the longest line accepted, in bytes
	watch   *watchdog   // nil until the request is sent
	// deliver takes each data line's payload from inside the body's
	// Read, so a line is read once, without go-openai's second pass and
	// its regular expressions; an error ends the body with it.
	deliver func(payload []byte) error
	// gather and onWait are the Handler's: how long a fast stream may
	// gather between reads, and who is told before each wait.
	gather Gather
	onWait func()
	// hurried ends the gathering: a tool call asked for the rest of the
	// reply as it comes (Handler.OnToolBegin), or the reply finished.
	hurried bool

	status      int    // HTTP status of the response
	contentType string // its media type, without parameters
	retryAfter  string // its Retry-After header, if any
	firstLine   string // the first non-blank line of a successful body
	sawData     bool   // a data line arrived
}

type markerKey struct{}

// withMarker returns ctx carrying a fresh marker for one request.
func withMarker(ctx context.Context, maxLine int) (context.Context, *streamMarker) {
	m := &streamMarker{maxLine: maxLine}
	return context.WithValue(ctx, markerKey{}, m), m
}

// progress tells the watchdog the reply grew.
func (m *streamMarker) progress() {
	if m.watch != nil {
		m.watch.progress()
	}
}

// finished tells the watchdog the reply is complete.
func (m *streamMarker) finished() {
	if m.watch != nil {
		m.watch.finished()
	}
}

// sseTransport bounds each request in time and size and filters successful
// response bodies line by line; see NewClient.
type sseTransport struct {
	base     http.RoundTripper
	timeouts Timeouts
}

// errorBodyMax bounds an error response body: go-openai reads it whole.
const errorBodyMax = 64 << 10

// RoundTrip implements http.RoundTripper. Requests sent by Stream carry a
// marker and get a watchdog; others (the model list) keep the connect
// timeout and a cap on their body, and their caller's deadline bounds the
// rest, since nothing would report their progress.
func (t *sseTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	m, _ := req.Context().Value(markerKey{}).(*streamMarker)
	if m == nil {
		resp, err := t.base.RoundTrip(req)
		if err == nil {
			resp.Body = &cappedBody{rc: resp.Body, left: otherBodyMax}
		}
		return resp, err
	}
	ctx, cancel := context.WithCancelCause(req.Context())
	m.watch = startWatchdog(t.timeouts, cancel)
	// The connection a gathering stream arrives on, to hold it quiet
	// while the stream sleeps (see gatheringBody).
	var conn net.Conn
	if m.gather.Most > 0 {
		ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{GotConn: func(info httptrace.GotConnInfo) { conn = info.Conn }})
	}
	resp, err := t.base.RoundTrip(req.WithContext(ctx))
	if err != nil {
		m.watch.stop()
		cancel(nil)
		return nil, timeoutCause(ctx, err)
	}
	m.status, m.contentType = resp.StatusCode, mediaType(resp.Header.Get("Content-Type"))
	release := func() { m.watch.stop(); cancel(nil) }
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		m.retryAfter = resp.Header.Get("Retry-After")
		m.watch.bound()
		resp.Body = &errorBody{rc: resp.Body, r: io.LimitReader(resp.Body, errorBodyMax), ctx: ctx, release: release}
		return resp, nil
	}
	var body io.ReadCloser = resp.Body
	if m.gather.Most > 0 || m.onWait != nil {
		gb := &gatheringBody{rc: resp.Body, ctx: ctx, gather: m.gather, onWait: m.onWait, hurried: &m.hurried}
		if resp.ProtoMajor == 1 {
			// Over HTTP/1 the body has the connection to itself; an
			// HTTP/2 connection is shared, and read by its own goroutine.
			gb.conn = conn
		}
		body = gb
	}
	resp.Body = &sseBody{rc: body, raw: resp.Body, r: bufio.NewReader(body), marker: m, ctx: ctx, release: release}
	return resp, nil
}

// sseBody reads the body line by line: data lines go to the marker's
// deliver, and go-openai sees only what it must (the end of the stream,
// errors, and lines that are not stream data, which it gathers as an
// error body).
type sseBody struct {
	rc      io.ReadCloser
	raw     io.ReadCloser // the response's own body, under rc
	r       *bufio.Reader
	marker  *streamMarker
	ctx     context.Context
	release func()
	pending []byte
	err     error
	other   int  // bytes of non-data lines passed on so far
	began   bool // the first line has been read
}

// Read implements io.Reader.
func (b *sseBody) Read(p []byte) (int, error) {
	for len(b.pending) == 0 {
		if b.err != nil {
			return 0, b.err
		}
		var line []byte
		line, b.err = b.readLine()
		if !b.began {
			// The SSE format lets a stream open with a UTF-8 byte
			// order mark (a writer set to UTF-8 with BOM sends one);
			// it is no part of the first line.
			b.began, line = true, bytes.TrimPrefix(line, utf8BOM)
		}
		if b.err != nil && !errors.Is(b.err, io.EOF) {
			b.err = timeoutCause(b.ctx, b.err)
		}
		if b.err != nil && cutEvent(line) {
			// The connection ended or stalled inside an event: what
			// arrived of it is no chunk to decode but a cut reply.
			if errors.Is(b.err, io.EOF) {
				b.err = &ProviderError{Reason: "the reply was cut off inside an event", Err: io.ErrUnexpectedEOF, Transient: true}
			}
			return 0, b.err
		}
		var ferr error
		b.pending, ferr = b.filter(line)
		if ferr != nil {
			b.pending, b.err = nil, ferr
		}
	}
	n := copy(p, b.pending)
	b.pending = b.pending[n:]
	return n, nil
}

// readLine reads one line, refusing lines longer than the marker allows:
// a server sending one endless line would otherwise fill memory. A line
// that fits the reader's buffer is returned in place, valid until the next
// read: both its consumers are done with it by then.
func (b *sseBody) readLine() ([]byte, error) {
	var line []byte
	for {
		frag, err := b.r.ReadSlice('\n')
		if len(line)+len(frag) > b.marker.maxLine {
			return nil, &ProviderError{Reason: "the endpoint sent one stream line of more than " + formatBytes(b.marker.maxLine) + "; the stream was cut"}
		}
		if line == nil && !errors.Is(err, bufio.ErrBufferFull) {
			return frag, err
		}
		line = append(line, frag...)
		if !errors.Is(err, bufio.ErrBufferFull) {
			return line, err
		}
	}
}

// cutEvent reports whether line, which the stream ended inside, is the
// start of a data event that never finished: no newline, and a payload
// that is neither whole JSON nor [DONE].
func cutEvent(line []byte) bool {
	if bytes.HasSuffix(line, []byte{'\n'}) {
		return false
	}
	payload, ok := bytes.CutPrefix(bytes.TrimSpace(line), dataField)
	payload = bytes.TrimSpace(payload)
	return ok && !bytes.Equal(payload, doneMessage) && !json.Valid(payload)
}

// Close implements io.Closer. A stream that said [DONE] is first read on
// to its end, in the background: the connection goes back to the pool only
// once its body has been read whole, and the end of an HTTP/1 body (its
// last, empty chunk) often comes in a packet of its own after [DONE].
// Closed before it, the connection would be dropped, and the next request
// would connect anew.
func (b *sseBody) Close() error {
	if !b.marker.done.Load() {
		b.release()
		return b.rc.Close()
	}
	go b.drain()
	return nil
}

// drainWait and drainMax bound what is read of a body after its [DONE]: a
// server that sends more, or keeps the stream open, loses the connection.
const (
	drainWait = 250 * time.Millisecond
	drainMax  = 4 << 10
)

// drain reads the rest of the body, at most drainMax bytes within
// drainWait, and closes it.
func (b *sseBody) drain() {
	defer b.release()
	stop := time.AfterFunc(drainWait, func() { b.raw.Close() })
	defer stop.Stop()
	_, _ = io.CopyN(io.Discard, b.raw, drainMax)
	b.raw.Close()
}

var (
	utf8BOM     = []byte("\xef\xbb\xbf")
	dataField   = []byte("data:")
	errorObject = []byte(`{"error":`)
	doneMessage = []byte("[DONE]")
	// Fields other than data carry nothing baton uses, and go-openai would
	// mistake them for the start of an error body.
	droppedFields = [][]byte{[]byte(":"), []byte("event:"), []byte("id:"), []byte("retry:")}
)

// otherMax bounds the lines that are neither SSE fields nor data which are
// passed on to go-openai; it keeps them all to parse as an error body.
const otherMax = 64 << 10

// filter returns what to pass on for one line: nothing for blank lines,
// comments and non-data fields (go-openai reads line by line and needs none
// of them), and in-band error events with the exact prefix go-openai
// intercepts respaced so they reach RecvRaw unchanged in meaning. go-openai's
// own handling loses errors whose shape it does not expect, such as a plain
// string. A body that is not a stream at all (an HTML page, plain text) is
// an error naming what came back.
func (b *sseBody) filter(line []byte) ([]byte, error) {
	trimmed := bytes.TrimSpace(line)
	if len(trimmed) == 0 {
		return nil, nil
	}
	first := b.marker.firstLine == ""
	if first {
		b.marker.firstLine = firstLine(trimmed)
	}
	for _, f := range droppedFields {
		if bytes.HasPrefix(trimmed, f) {
			return nil, nil
		}
	}
	payload, ok := bytes.CutPrefix(trimmed, dataField)
	if !ok {
		if first && (trimmed[0] != '{' || b.marker.contentType == "text/html") {
			return nil, b.marker.notAStream()
		}
		if b.other += len(line); b.other > otherMax {
			return nil, &ProviderError{Status: b.marker.status, Reason: "the endpoint sent more than " + formatBytes(otherMax) + " that is not stream data", Message: b.marker.firstLine}
		}
		return line, nil
	}
	b.marker.sawData = true
	payload = bytes.TrimLeft(payload, " \t")
	switch {
	case bytes.Equal(payload, doneMessage):
		b.marker.done.Store(true)
	case b.marker.deliver != nil:
		return nil, b.marker.deliver(payload)
	case bytes.HasPrefix(payload, errorObject):
		out := append([]byte("data: { "), payload[1:]...)
		return append(out, '\n'), nil
	}
	return line, nil
}
