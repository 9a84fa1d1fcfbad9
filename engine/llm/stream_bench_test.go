package llm_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/llm"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

// BenchmarkStream measures a whole long reply through the real client,
// transport filter and a local server, in chunks per second.
func BenchmarkStream(b *testing.B) {
	const textChunks, argChunks = 2000, 1000
	var body strings.Builder
	for i := range textChunks {
		fmt.Fprintf(&body, "data: %s\n\n", text(fmt.Sprintf("word%d ", i)))
	}
	fmt.Fprintf(&body, "data: %s\n\n", tools(`[{"index":0,"id":"call_1","type":"function","function":{"name":"read","arguments":""}}]`))
	for i := range argChunks {
		fmt.Fprintf(&body, "data: %s\n\n", tools(fmt.Sprintf(`[{"index":0,"function":{"arguments":"x%d"}}]`, i)))
	}
	fmt.Fprintf(&body, "data: %s\n\ndata: [DONE]\n", toolsDone)
	blob := body.String()
	chunks := textChunks + 1 + argChunks + 1

	srv := llmtest.NewServer(b, func(_ *llmtest.Request, w *llmtest.Writer) { w.Raw(blob) })
	client := srv.Client()
	req := openai.ChatCompletionRequest{Model: "m", Messages: []openai.ChatCompletionMessage{{Role: "user", Content: "hi"}}}
	b.ReportAllocs()
	for b.Loop() {
		resp, err := llm.Stream(context.Background(), client, req, llm.Handler{})
		if err != nil || len(resp.ToolCalls) != 1 {
			b.Fatalf("Stream = %d calls, %v", len(resp.ToolCalls), err)
		}
	}
	b.ReportMetric(float64(b.N*chunks)/b.Elapsed().Seconds(), "chunks/s")
}
