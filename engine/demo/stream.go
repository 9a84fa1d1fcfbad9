package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode"
)

// maxTextChunks bounds how many chunks one reply's text is cut into, so a
// long summary still streams in about DefaultChunkDelay × maxTextChunks.
const maxTextChunks = 80

// argPieces is how many deltas carry one tool call's arguments, as real
// providers spread them.
const argPieces = 3

// stream writes one reply as server-sent events in OpenAI's chunk shape.
type stream struct {
	ctx     context.Context
	w       http.ResponseWriter
	rc      *http.ResponseController
	model   string
	delay   time.Duration
	id      string
	created int64
	started bool
}

// newStream prepares a reply; nothing is written until the first chunk.
func newStream(ctx context.Context, w http.ResponseWriter, model string, delay time.Duration) *stream {
	if model == "" {
		model = Model
	}
	now := time.Now()
	return &stream{ctx: ctx, w: w, rc: http.NewResponseController(w), model: model, delay: delay,
		id: fmt.Sprintf("chatcmpl-demo-%d", now.UnixNano()), created: now.Unix()}
}

// reply streams out: a role chunk, the text word by word, each tool call
// with its arguments over a few deltas, the finish reason, the usage chunk
// when asked for, and [DONE]. It stops at the first failed write or when
// the request's context ends.
func (s *stream) reply(out reply, u usage, includeUsage bool) error {
	if err := s.send(chunkDelta{Role: "assistant"}, nil); err != nil {
		return err
	}
	for _, piece := range textPieces(out.text) {
		if err := s.paced(chunkDelta{Content: piece}); err != nil {
			return err
		}
	}
	for i, c := range out.calls {
		head := toolCallDelta{Index: i, ID: c.id, Type: "function", Function: functionDelta{Name: c.name}}
		if err := s.paced(chunkDelta{ToolCalls: []toolCallDelta{head}}); err != nil {
			return err
		}
		for _, piece := range splitRunes(c.args, argPieces) {
			if err := s.paced(chunkDelta{ToolCalls: []toolCallDelta{{Index: i, Function: functionDelta{Arguments: piece}}}}); err != nil {
				return err
			}
		}
	}
	finish := "stop"
	if len(out.calls) > 0 {
		finish = "tool_calls"
	}
	if err := s.send(chunkDelta{}, &finish); err != nil {
		return err
	}
	if includeUsage {
		if err := s.write(chunk{ID: s.id, Object: "chat.completion.chunk", Created: s.created, Model: s.model, Choices: []chunkChoice{}, Usage: &u}); err != nil {
			return err
		}
	}
	return s.line("data: [DONE]")
}

// paced waits the chunk delay, then sends d.
func (s *stream) paced(d chunkDelta) error {
	if err := s.pause(); err != nil {
		return err
	}
	return s.send(d, nil)
}

// pause waits the chunk delay or until the request ends.
func (s *stream) pause() error {
	if s.delay <= 0 {
		return s.ctx.Err()
	}
	t := time.NewTimer(s.delay)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-s.ctx.Done():
		return s.ctx.Err()
	}
}

// send writes one chunk holding delta d and, at the end, a finish reason.
func (s *stream) send(d chunkDelta, finish *string) error {
	return s.write(chunk{ID: s.id, Object: "chat.completion.chunk", Created: s.created, Model: s.model,
		Choices: []chunkChoice{{Delta: d, FinishReason: finish}}})
}

// write marshals c into a data line.
func (s *stream) write(c chunk) error {
	b, err := json.Marshal(c)
	if err != nil {
		return fmt.Errorf("encode chunk: %w", err)
	}
	return s.line("data: " + string(b))
}

// line writes one SSE line and a blank line, and flushes so the client
// sees each chunk as it is written.
func (s *stream) line(text string) error {
	if err := s.ctx.Err(); err != nil {
		return err
	}
	if !s.started {
		s.started = true
		s.w.Header().Set("Content-Type", "text/event-stream")
		s.w.Header().Set("Cache-Control", "no-cache")
		s.w.WriteHeader(http.StatusOK)
	}
	if _, err := fmt.Fprintf(s.w, "%s\n\n", text); err != nil {
		return fmt.Errorf("write chunk: %w", err)
	}
	if err := s.rc.Flush(); err != nil {
		return fmt.Errorf("flush chunk: %w", err)
	}
	return nil
}

// textPieces cuts text after runs of white space, keeping the spaces, and
// groups the words so no reply takes more than maxTextChunks chunks.
func textPieces(text string) []string {
	var words []string
	start := 0
	runes := []rune(text)
	for i := 1; i <= len(runes); i++ {
		if i == len(runes) || (unicode.IsSpace(runes[i-1]) && !unicode.IsSpace(runes[i])) {
			words = append(words, string(runes[start:i]))
			start = i
		}
	}
	per := (len(words) + maxTextChunks - 1) / maxTextChunks
	var out []string
	for len(words) > 0 {
		n := min(per, len(words))
		out = append(out, strings.Join(words[:n], ""))
		words = words[n:]
	}
	return out
}

// splitRunes cuts s into at most n pieces on rune boundaries.
func splitRunes(s string, n int) []string {
	r := []rune(s)
	if len(r) == 0 {
		return nil
	}
	step := (len(r) + n - 1) / n
	var out []string
	for len(r) > 0 {
		k := min(step, len(r))
		out = append(out, string(r[:k]))
		r = r[k:]
	}
	return out
}
