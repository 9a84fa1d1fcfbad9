package llm

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"sync/atomic"
)

// streamMarker is how Stream learns what the transport saw on the wire:
// go-openai's RecvRaw answers io.EOF both for "data: [DONE]" and for a
// connection that simply ended, and only the second is a cut-off reply.
type streamMarker struct {
	done atomic.Bool // "data: [DONE]" arrived
}

type markerKey struct{}

// withMarker returns ctx carrying a fresh marker for one request.
func withMarker(ctx context.Context) (context.Context, *streamMarker) {
	m := &streamMarker{}
	return context.WithValue(ctx, markerKey{}, m), m
}

// sseTransport filters successful response bodies line by line; see NewClient.
type sseTransport struct {
	base http.RoundTripper
}

// RoundTrip implements http.RoundTripper.
func (t *sseTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil || resp.StatusCode < 200 || resp.StatusCode > 299 {
		return resp, err
	}
	m, _ := req.Context().Value(markerKey{}).(*streamMarker)
	resp.Body = &sseBody{rc: resp.Body, r: bufio.NewReader(resp.Body), marker: m}
	return resp, nil
}

// sseBody yields the body's lines minus those go-openai mishandles.
type sseBody struct {
	rc      io.ReadCloser
	r       *bufio.Reader
	marker  *streamMarker
	pending []byte
	err     error
}

// Read implements io.Reader.
func (b *sseBody) Read(p []byte) (int, error) {
	for len(b.pending) == 0 {
		if b.err != nil {
			return 0, b.err
		}
		var line []byte
		line, b.err = b.r.ReadBytes('\n')
		b.pending = b.filter(line)
	}
	n := copy(p, b.pending)
	b.pending = b.pending[n:]
	return n, nil
}

// Close implements io.Closer.
func (b *sseBody) Close() error { return b.rc.Close() }

var (
	dataField   = []byte("data:")
	errorObject = []byte(`{"error":`)
	doneMessage = []byte("[DONE]")
	// Fields other than data carry nothing baton uses, and go-openai would
	// mistake them for the start of an error body.
	droppedFields = [][]byte{[]byte(":"), []byte("event:"), []byte("id:"), []byte("retry:")}
)

// filter returns what to pass on for one line: nothing for blank lines,
// comments and non-data fields (go-openai reads line by line and needs none
// of them), and in-band error events with the exact prefix go-openai
// intercepts respaced so they reach RecvRaw unchanged in meaning. go-openai's
// own handling loses errors whose shape it does not expect, such as a plain
// string.
func (b *sseBody) filter(line []byte) []byte {
	trimmed := bytes.TrimSpace(line)
	if len(trimmed) == 0 {
		return nil
	}
	for _, f := range droppedFields {
		if bytes.HasPrefix(trimmed, f) {
			return nil
		}
	}
	payload, ok := bytes.CutPrefix(trimmed, dataField)
	if !ok {
		return line
	}
	payload = bytes.TrimLeft(payload, " \t")
	switch {
	case bytes.Equal(payload, doneMessage):
		if b.marker != nil {
			b.marker.done.Store(true)
		}
	case bytes.HasPrefix(payload, errorObject):
		out := append([]byte("data: { "), payload[1:]...)
		return append(out, '\n')
	}
	return line
}
