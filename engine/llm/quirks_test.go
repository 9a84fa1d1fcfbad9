package llm_test

import (
	"strings"

	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

// quirks lists what real providers send; each is a named case.
func quirks() []quirk {
	readCall := []wantCall{{"call_1", "read", `{"path":"a.go"}`}}
	return []quirk{
		{
			name: "empty choices: Azure prompt filter chunk first",
			script: lines(`{"id":"","object":"","created":0,"model":"","prompt_filter_results":[{"prompt_index":0,"content_filter_results":{"hate":{"filtered":false,"severity":"safe"}}}],"choices":[]}`,
				roleChunk, text("hel"), text("lo"), stopChunk),
			text: "hello", finish: "stop",
		},
		{
			name:   "empty choices: usage-only chunk after finish",
			script: lines(roleChunk, text("hi"), stopChunk, usageOnly),
			text:   "hi", finish: "stop", prompt: 7,
		},
		{
			name: "tool call: standard shape, id and name only in the first delta",
			script: lines(roleChunk,
				tools(`[{"index":0,"id":"call_1","type":"function","function":{"name":"read","arguments":""}}]`),
				tools(`[{"index":0,"function":{"arguments":"{\"pa"}}]`),
				tools(`[{"index":0,"function":{"arguments":"th\":\"a.go\"}"}}]`),
				toolsDone, usageOnly),
			calls: readCall, finish: "tool_calls", prompt: 7,
		},
		{
			name: "tool call: name repeated in every delta is not doubled",
			script: lines(
				tools(`[{"index":0,"id":"call_1","type":"function","function":{"name":"read","arguments":"{\"path\":"}}]`),
				tools(`[{"index":0,"id":"call_1","type":"function","function":{"name":"read","arguments":"\"a.go\"}"}}]`),
				toolsDone),
			calls: readCall, finish: "tool_calls",
		},
		{
			name: "tool call: no index continues the last call until a new id arrives",
			script: lines(
				tools(`[{"id":"call_1","type":"function","function":{"name":"read","arguments":"{\"path\":"}}]`),
				tools(`[{"function":{"arguments":"\"a.go\"}"}}]`),
				tools(`[{"id":"call_2","type":"function","function":{"name":"grep","arguments":"{}"}}]`),
				toolsDone),
			calls:  []wantCall{readCall[0], {"call_2", "grep", "{}"}},
			finish: "tool_calls",
		},
		{
			name: "tool call: no index and no id, whole calls told apart by name",
			script: lines(
				tools(`[{"function":{"name":"read","arguments":"{\"path\":\"a.go\"}"}}]`),
				tools(`[{"function":{"name":"grep","arguments":"{\"q\":\"x\"}"}}]`),
				toolsDone),
			calls:  []wantCall{{"", "read", `{"path":"a.go"}`}, {"", "grep", `{"q":"x"}`}},
			finish: "tool_calls",
		},
		{
			name: "tool call: no index and no id, two whole calls of one tool",
			script: lines(
				tools(`[{"function":{"name":"read","arguments":"{\"path\":\"a.go\"}"}}]`),
				tools(`[{"function":{"name":"read","arguments":"{\"path\":\"b.go\"}"}}]`),
				toolsDone),
			calls:  []wantCall{{"", "read", `{"path":"a.go"}`}, {"", "read", `{"path":"b.go"}`}},
			finish: "tool_calls",
		},
		{
			name: "tool call: index starting at 1",
			script: lines(
				tools(`[{"index":1,"id":"call_1","type":"function","function":{"name":"read","arguments":"{\"path\":"}}]`),
				tools(`[{"index":2,"id":"call_2","type":"function","function":{"name":"grep","arguments":""}}]`),
				tools(`[{"index":1,"function":{"arguments":"\"a.go\"}"}}]`),
				tools(`[{"index":2,"function":{"arguments":"{}"}}]`),
				toolsDone),
			calls:  []wantCall{readCall[0], {"call_2", "grep", "{}"}},
			finish: "tool_calls",
		},
		{
			name: "tool call: index -1 on every delta, new id starts a new call",
			script: lines(
				tools(`[{"index":-1,"id":"call_1","type":"function","function":{"name":"read","arguments":"{\"path\":"}}]`),
				tools(`[{"index":-1,"function":{"arguments":"\"a.go\"}"}}]`),
				tools(`[{"index":-1,"id":"call_2","type":"function","function":{"name":"grep","arguments":"{}"}}]`),
				toolsDone),
			calls:  []wantCall{readCall[0], {"call_2", "grep", "{}"}},
			finish: "tool_calls",
		},
		{
			name: "tool call: whole calls in one chunk (Ollama, Groq)",
			script: lines(
				tools(`[{"index":0,"id":"call_1","type":"function","function":{"name":"read","arguments":"{\"path\":\"a.go\"}"}},{"index":1,"id":"call_2","type":"function","function":{"name":"grep","arguments":"{}"}}]`),
				toolsDone),
			calls:  []wantCall{readCall[0], {"call_2", "grep", "{}"}},
			finish: "tool_calls",
		},
		{
			name: "tool call: empty ids are generated and distinct",
			script: lines(
				tools(`[{"index":0,"id":"","type":"function","function":{"name":"read","arguments":"{}"}}]`),
				tools(`[{"index":1,"id":"","type":"function","function":{"name":"read","arguments":"{}"}}]`),
				toolsDone),
			calls:  []wantCall{{"", "read", "{}"}, {"", "read", "{}"}},
			finish: "tool_calls",
		},
		{
			name: "tool call: empty arguments become {}",
			script: lines(
				tools(`[{"index":0,"id":"call_1","type":"function","function":{"name":"list","arguments":""}}]`),
				toolsDone),
			calls: []wantCall{{"call_1", "list", "{}"}}, finish: "tool_calls",
		},
		{
			name: "tool call: finish_reason stop still returns the calls",
			script: lines(
				tools(`[{"index":0,"id":"call_1","type":"function","function":{"name":"read","arguments":"{\"path\":\"a.go\"}"}}]`),
				stopChunk),
			calls: readCall, finish: "stop",
		},
		{
			name:   "no finish key at all, but [DONE]",
			script: lines(`{"choices":[{"index":0,"delta":{"content":"ok"}}]}`),
			text:   "ok",
		},
		{
			name: "finish_reason but no [DONE]",
			script: func(w *llmtest.Writer) {
				w.Chunk(text("ok"))
				w.Chunk(stopChunk)
			},
			text: "ok", finish: "stop",
		},
		{
			name: "usage on every chunk keeps the last",
			script: lines(
				`{"choices":[{"index":0,"delta":{"content":"a"}}],"usage":{"prompt_tokens":5,"completion_tokens":1,"total_tokens":6}}`,
				`{"choices":[{"index":0,"delta":{"content":"b"}}],"usage":{"prompt_tokens":5,"completion_tokens":2,"total_tokens":7}}`,
				`{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":9,"completion_tokens":3,"total_tokens":12}}`),
			text: "ab", finish: "stop", prompt: 9,
		},
		{
			name:   "usage only in the last chunk, with the finish",
			script: lines(text("a"), `{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":4,"completion_tokens":1,"total_tokens":5}}`),
			text:   "a", finish: "stop", prompt: 4,
		},
		{
			name: "keep-alive comments before the first token (OpenRouter sends 300+)",
			script: func(w *llmtest.Writer) {
				for range 400 {
					w.Raw(": OPENROUTER PROCESSING\n")
				}
				// More than any empty-message limit: only dropping them helps.
				w.Raw(strings.Repeat(": OPENROUTER PROCESSING\n\n", 20000))
				w.Raw("event: message")
				lines(text("late"), stopChunk)(w)
			},
			text: "late", finish: "stop",
		},
		{
			name: "reasoning_content is kept apart from the text (DeepSeek)",
			script: lines(`{"choices":[{"index":0,"delta":{"reasoning_content":"think "}}]}`,
				`{"choices":[{"index":0,"delta":{"reasoning_content":"hard"}}]}`, text("answer"), stopChunk),
			text: "answer", reasoning: "think hard", finish: "stop",
		},
		{
			name:   "reasoning field is kept (OpenRouter)",
			script: lines(`{"choices":[{"index":0,"delta":{"content":"","reasoning":"hmm"}}]}`, text("yes"), stopChunk),
			text:   "yes", reasoning: "hmm", finish: "stop",
		},
		{
			name:   "in-band error: data error object",
			script: lines(`{"error":{"message":"upstream overloaded","type":"server_error","code":503}}`),
			err:    "provider error (503) during the reply: upstream overloaded",
		},
		{
			name:   "in-band error: error as a plain string",
			script: lines(`{"error":"quota exhausted"}`),
			err:    "provider error during the reply: quota exhausted",
		},
		{
			name:   "in-band error: top-level object error (vLLM)",
			script: lines(`{"object":"error","message":"max_tokens is too large","type":"BadRequestError","code":400}`),
			err:    "request rejected (400) during the reply: max_tokens is too large",
		},
		{
			name: "in-band error: chunk with error and finish_reason error keeps the text",
			script: lines(text("partial "),
				tools(`[{"index":0,"id":"call_1","type":"function","function":{"name":"read","arguments":"{\"pa"}}]`),
				`{"id":"gen-1","object":"chat.completion.chunk","error":{"code":"server_error","message":"Provider disconnected"},"choices":[{"index":0,"delta":{"content":""},"finish_reason":"error"}]}`),
			text: "partial ",
			err:  "provider error during the reply: Provider disconnected",
		},
		{
			name: "cut stream: no finish_reason and no [DONE] drops the half-made call",
			script: func(w *llmtest.Writer) {
				w.Chunk(text("let me read"))
				w.Chunk(tools(`[{"index":0,"id":"call_1","type":"function","function":{"name":"write","arguments":"{\"path\":\"a.go\",\"content\":\"pack"}}]`))
			},
			text: "let me read",
			err:  "the reply was cut off",
		},
		{
			name:   "unreadable chunk is an error naming it",
			script: lines(text("a"), `{"choices":[{"delta":`),
			text:   "a",
			err:    `unreadable chunk: {"choices":[{"delta":`,
		},
		{
			name: "a byte order mark before the first line, as the SSE format allows",
			script: func(w *llmtest.Writer) {
				w.Raw("\ufeffdata: " + text("ok") + "\r\n\r")
				lines(stopChunk)(w)
			},
			text: "ok", finish: "stop",
		},
		{
			name:   "empty reply with only [DONE]",
			script: lines(),
		},
		{
			name: "keep-alives then an error body without data: keep the provider's message",
			script: func(w *llmtest.Writer) {
				w.Raw(strings.Repeat(": OPENROUTER PROCESSING\n", 5))
				w.Raw(`{"error":{"message":"no endpoints found for this model"}}`)
			},
			err: "provider error during the reply: no endpoints found for this model",
		},
	}
}
