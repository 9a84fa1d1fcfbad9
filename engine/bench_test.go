package engine

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

// childDelay is how long the scripted server holds each child's reply,
// standing in for a model's latency.
const childDelay = 50 * time.Millisecond

// fanOutServer answers the main agent with n task calls, each child after
// childDelay, then the main agent with a summary.
func fanOutServer(n int) llmtest.Responder {
	calls := make([]llmtest.Call, n)
	for i := range calls {
		calls[i] = taskCall(fmt.Sprintf("t%d", i), "explore", fmt.Sprintf("job %d", i), fmt.Sprintf("prompt %d", i))
	}
	return func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case isChild(r):
			select {
			case <-time.After(childDelay):
			case <-w.Context().Done():
				return
			}
			w.Text("child report")
		case len(toolMessages(r)) == 0:
			w.ToolCalls(calls...)
		default:
			w.Text("summary")
		}
	}
}

// BenchmarkAgentLoop measures one turn: a tool call, its result, a reply.
func BenchmarkAgentLoop(b *testing.B) {
	s, _ := newTestSession(b, func(r *llmtest.Request, w *llmtest.Writer) {
		if len(toolMessages(r)) == 0 {
			w.ToolCalls(llmtest.Call{Name: "list_files", Args: `{}`})
			return
		}
		w.Text("There are no files here.")
	}, nil)
	b.ResetTimer()
	for b.Loop() {
		runTurn(b, s, "list", nil)
		_ = s.Clear()
	}
}

// BenchmarkParallelChildren compares a turn delegating to eight children
// with one delegating to a single child; the ratio shows how close eight
// parallel children come to the wall time of one.
func BenchmarkParallelChildren(b *testing.B) {
	one, _ := newTestSession(b, fanOutServer(1), nil)
	eight, _ := newTestSession(b, fanOutServer(8), nil)
	var single, parallel time.Duration
	b.ResetTimer()
	for b.Loop() {
		start := time.Now()
		runTurn(b, one, "go", nil)
		single += time.Since(start)
		start = time.Now()
		runTurn(b, eight, "go", nil)
		parallel += time.Since(start)
		_, _ = one.Clear(), eight.Clear()
	}
	b.ReportMetric(float64(parallel)/float64(single), "ratio-8-vs-1")
	b.ReportMetric(float64(parallel.Milliseconds())/float64(b.N), "ms/8-children")
}

// BenchmarkSixtyFourChildren reports the memory allocated per child when
// 64 children run at once.
func BenchmarkSixtyFourChildren(b *testing.B) {
	const n = 64
	s, _ := newTestSession(b, fanOutServer(n), func(c *Config) { c.Limits.MaxConcurrent = n })
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b.ResetTimer()
	for b.Loop() {
		runTurn(b, s, "go", nil)
		_ = s.Clear()
	}
	b.StopTimer()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N*n), "B/child")
}
