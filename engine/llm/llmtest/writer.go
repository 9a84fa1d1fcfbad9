package llmtest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"testing"
)

// The usage every Text and ToolCalls reply reports, so tests can assert sums.
const (
	PromptTokens     = 100
	CompletionTokens = 20
)

// Writer writes one response as server-sent events, flushing every line so
// the client sees each chunk as it is written. Write errors are ignored: they
// mean the client went away, which cancellation tests cause on purpose.
type Writer struct {
	t       testing.TB
	rw      http.ResponseWriter
	ctx     context.Context
	started bool
}

func newWriter(t testing.TB, rw http.ResponseWriter, ctx context.Context) *Writer {
	return &Writer{t: t, rw: rw, ctx: ctx}
}

// Context is done when the client cancels or the server closes; a Responder
// that blocks selects on it so it never outlives the test.
func (w *Writer) Context() context.Context { return w.ctx }

// Header is the response's header map; what a Responder sets there before
// the first line, Error or Body is sent with it (a Retry-After, say).
func (w *Writer) Header() http.Header { return w.rw.Header() }

// Chunk writes "data: <json>" and a blank line. v is marshalled to JSON,
// except that a string or []byte is written verbatim as JSON text.
func (w *Writer) Chunk(v any) {
	var b []byte
	switch x := v.(type) {
	case string:
		b = []byte(x)
	case []byte:
		b = x
	default:
		var err error
		if b, err = json.Marshal(v); err != nil {
			w.t.Errorf("llmtest: marshal chunk: %v", err)
			return
		}
	}
	w.Raw("data: " + string(b) + "\n")
}

// Raw writes line and a newline, for comments, malformed data and cut
// streams.
func (w *Writer) Raw(line string) {
	w.Headers()
	_, _ = io.WriteString(w.rw, line+"\n")
	_ = http.NewResponseController(w.rw).Flush()
}

// Partial writes s with no newline, for a stream cut or stalled inside
// an event: the reply ends (or waits) right after it.
func (w *Writer) Partial(s string) {
	w.Headers()
	_, _ = io.WriteString(w.rw, s)
	_ = http.NewResponseController(w.rw).Flush()
}

// Headers sends the 200 status and event-stream headers now, before any
// line, as servers do that then read the prompt for minutes. Later calls
// do nothing.
func (w *Writer) Headers() {
	if w.started {
		return
	}
	w.started = true
	w.rw.Header().Set("Content-Type", "text/event-stream")
	w.rw.Header().Set("Cache-Control", "no-cache")
	w.rw.WriteHeader(http.StatusOK)
	_ = http.NewResponseController(w.rw).Flush()
}

// Done writes "data: [DONE]", the end of a well-formed stream.
func (w *Writer) Done() { w.Raw("data: [DONE]\n") }

// Error answers with an HTTP error status and a JSON body, such as
// `{"error":{"message":"invalid api key"}}`. It must come before any chunk.
func (w *Writer) Error(status int, body string) {
	if w.started {
		w.t.Errorf("llmtest: Error(%d) after the stream began", status)
		return
	}
	w.started = true
	w.rw.Header().Set("Content-Type", "application/json")
	w.rw.WriteHeader(status)
	_, _ = io.WriteString(w.rw, body)
}

// Body answers with any status, content type and body, such as a proxy's
// HTML error page or a captive portal's 200. It must come before any chunk.
func (w *Writer) Body(status int, contentType, body string) {
	if w.started {
		w.t.Errorf("llmtest: Body(%d) after the stream began", status)
		return
	}
	w.started = true
	w.rw.Header().Set("Content-Type", contentType)
	w.rw.WriteHeader(status)
	_, _ = io.WriteString(w.rw, body)
}

// Text writes a whole assistant text reply: a role chunk, s in a few
// deltas, finish_reason "stop", a usage chunk and [DONE].
func (w *Writer) Text(s string) {
	w.Chunk(envelope(map[string]any{"role": "assistant", "content": ""}, nil))
	for _, piece := range split(s) {
		w.Chunk(envelope(map[string]any{"content": piece}, nil))
	}
	w.finish("stop")
}

// Call is one tool call for ToolCalls. An empty ID becomes "call_<n>", n
// counting from 0 within the reply.
type Call struct{ ID, Name, Args string }

// ToolCalls writes a whole tool-call reply in the standard OpenAI shape: id
// and name in each call's first delta, arguments split over further deltas,
// finish_reason "tool_calls", a usage chunk and [DONE].
func (w *Writer) ToolCalls(calls ...Call) {
	w.Chunk(envelope(map[string]any{"role": "assistant", "content": nil}, nil))
	for i, c := range calls {
		id := c.ID
		if id == "" {
			id = fmt.Sprintf("call_%d", i)
		}
		w.Chunk(envelope(toolDelta(map[string]any{
			"index": i, "id": id, "type": "function",
			"function": map[string]any{"name": c.Name, "arguments": ""},
		}), nil))
		for _, piece := range split(c.Args) {
			w.Chunk(envelope(toolDelta(map[string]any{
				"index": i, "function": map[string]any{"arguments": piece},
			}), nil))
		}
	}
	w.finish("tool_calls")
}

// finish writes the closing chunk with reason, the usage chunk and [DONE].
func (w *Writer) finish(reason string) {
	w.Chunk(envelope(map[string]any{}, reason))
	w.Chunk(map[string]any{
		"id": "chatcmpl-llmtest", "object": "chat.completion.chunk", "model": "llmtest",
		"choices": []any{},
		"usage": map[string]int{
			"prompt_tokens":     PromptTokens,
			"completion_tokens": CompletionTokens,
			"total_tokens":      PromptTokens + CompletionTokens,
		},
	})
	w.Done()
}

// envelope wraps a delta in a chunk; finish is nil or a finish reason.
func envelope(delta map[string]any, finish any) map[string]any {
	return map[string]any{
		"id": "chatcmpl-llmtest", "object": "chat.completion.chunk", "model": "llmtest",
		"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}},
	}
}

func toolDelta(call map[string]any) map[string]any {
	return map[string]any{"tool_calls": []any{call}}
}

// split cuts s into up to three pieces on rune boundaries, so every reply
// exercises reassembly.
func split(s string) []string {
	r := []rune(s)
	if len(r) == 0 {
		return nil
	}
	step := (len(r) + 2) / 3
	var out []string
	for len(r) > 0 {
		n := min(step, len(r))
		out = append(out, string(r[:n]))
		r = r[n:]
	}
	return out
}
