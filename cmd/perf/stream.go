package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// stream writes one reply as OpenAI's streaming API does: every chunk
// carries the id, object, creation time, model and system fingerprint,
// nulls where a field is empty, and "usage": null until the last.
type stream struct {
	w     http.ResponseWriter
	model string
	id    string
	split bool
	// pace, when set, is the pause after each piece of a tool call.
	pace time.Duration
	// ending is called as the reply ends, before its last line.
	ending func()
}

// send writes one chunk with the given choices and usage and flushes it.
func (st *stream) send(choices []any, usage any) {
	b, _ := json.Marshal(map[string]any{
		"id": st.id, "object": "chat.completion.chunk", "created": 1764300000, "model": st.model,
		"system_fingerprint": "fp_perf0000", "choices": choices, "usage": usage,
	})
	f, _ := st.w.(http.Flusher)
	if st.split && f != nil {
		_, _ = fmt.Fprintf(st.w, "data: %s\n", b)
		f.Flush()
		_, _ = fmt.Fprint(st.w, "\n")
	} else {
		_, _ = fmt.Fprintf(st.w, "data: %s\n\n", b)
	}
	if f != nil {
		f.Flush()
	}
}

// choice is one choice of a chunk.
func choice(delta map[string]any, finish any) []any {
	return []any{map[string]any{"index": 0, "delta": delta, "logprobs": nil, "finish_reason": finish}}
}

// role opens the reply as OpenAI does: the role and empty content.
func (st *stream) role() {
	st.send(choice(map[string]any{"role": "assistant", "content": "", "refusal": nil}, nil), nil)
}

// content sends one piece of text.
func (st *stream) content(text string) { st.send(choice(map[string]any{"content": text}, nil), nil) }

// finish ends the reply with a finish reason, the usage and [DONE].
func (st *stream) finish(reason string) {
	st.send(choice(map[string]any{}, reason), nil)
	st.send([]any{}, map[string]any{"prompt_tokens": 1200, "completion_tokens": 320, "total_tokens": 1520})
	if st.ending != nil {
		st.ending()
	}
	_, _ = fmt.Fprint(st.w, "data: [DONE]\n\n")
	if f, ok := st.w.(http.Flusher); ok {
		f.Flush()
	}
}

// delegate asks for n explore children in one message, each task call's
// arguments streamed in two pieces.
func (st *stream) delegate(n int) {
	st.role()
	for i := range n {
		args := fmt.Sprintf(`{"description":"part %d","prompt":"Describe part %d.","subagent_type":"explore"}`, i+1, i+1)
		st.toolCall(i, fmt.Sprintf("call_%s_task%d", st.id, i), "task", args)
	}
	st.finish("tool_calls")
}

// toolCalls ends a child's first reply with n read-only tool calls, the
// kind an explorer makes: the README, then a search in the package of
// its part.
func (st *stream) toolCalls(child string, n int) {
	part, _ := strconv.Atoi(child)
	calls := [][2]string{
		{"read_file", `{"path":"README.md"}`},
		{"grep", fmt.Sprintf(`{"pattern":"func New","path":"internal/pkg%d"}`, part%projectPackages)},
		{"list_files", fmt.Sprintf(`{"path":"internal/pkg%d"}`, part%projectPackages)},
	}
	for i := range n {
		c := calls[i%len(calls)]
		st.toolCall(i, fmt.Sprintf("call_%s_%s_%d", st.id, child, i), c[0], c[1])
	}
	st.finish("tool_calls")
}

// toolCall streams one tool call: its id (unique, as providers make
// them), type and name first, then its arguments in two pieces, or when
// the stream is paced in four, a pause after each.
func (st *stream) toolCall(index int, id, name, args string) {
	st.send(choice(map[string]any{"tool_calls": []any{map[string]any{"index": index, "id": id, "type": "function",
		"function": map[string]any{"name": name, "arguments": ""}}}}, nil), nil)
	pieces := 2
	if st.pace > 0 {
		pieces = 4
		time.Sleep(st.pace)
	}
	for i := range pieces {
		piece := args[i*len(args)/pieces : (i+1)*len(args)/pieces]
		st.send(choice(map[string]any{"tool_calls": []any{map[string]any{"index": index,
			"function": map[string]any{"arguments": piece}}}}, nil), nil)
		if st.pace > 0 {
			time.Sleep(st.pace)
		}
	}
}

// modelList is the endpoint's model list, as long as a gateway's (a few
// hundred models), with the run's model among them.
var modelList = func() []byte {
	models := []any{map[string]any{"id": "perf-model", "object": "model", "created": 1764300000, "owned_by": "perf"}}
	for i := range 320 {
		models = append(models, map[string]any{"id": fmt.Sprintf("vendor%d/model-%d-instruct", i%40, i), "object": "model",
			"created": 1700000000 + i, "owned_by": fmt.Sprintf("vendor%d", i%40)})
	}
	b, _ := json.Marshal(map[string]any{"object": "list", "data": models})
	return b
}()
