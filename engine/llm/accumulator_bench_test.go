package llm

import (
	"fmt"
	"strings"
	"testing"
)

// longReply renders the data lines of a long reply: text deltas, then
// parallel tool calls whose arguments arrive a few characters at a time.
func longReply(textChunks, calls, argChunks int) [][]byte {
	var out [][]byte
	for i := range textChunks {
		out = append(out, fmt.Appendf(nil, `{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"word%d "},"finish_reason":null}]}`, i))
	}
	for c := range calls {
		out = append(out, fmt.Appendf(nil, `{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":%d,"id":"call_%d","type":"function","function":{"name":"read_file","arguments":""}}]},"finish_reason":null}]}`, c, c))
		for a := range argChunks {
			out = append(out, fmt.Appendf(nil, `{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":%d,"function":{"arguments":"x%d"}}]},"finish_reason":null}]}`, c, a))
		}
	}
	out = append(out, []byte(`{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`))
	return out
}

// BenchmarkAccumulator measures decoding and assembling chunks, the work
// Stream does per line once go-openai has read it.
func BenchmarkAccumulator(b *testing.B) {
	lines := longReply(2000, 4, 250)
	var sink strings.Builder
	h := Handler{OnText: func(s string) { sink.WriteString(s) }}
	b.ReportAllocs()
	for b.Loop() {
		sink.Reset()
		var acc accumulator
		for _, l := range lines {
			if err := acc.feed(l, h); err != nil {
				b.Fatal(err)
			}
		}
		if r := acc.response(); len(r.ToolCalls) != 4 {
			b.Fatalf("assembled %d tool calls, want 4", len(r.ToolCalls))
		}
	}
	b.ReportMetric(float64(b.N*len(lines))/b.Elapsed().Seconds(), "chunks/s")
}
