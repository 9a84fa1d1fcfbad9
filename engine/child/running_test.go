package child_test

import (
	"slices"
	"sync"
	"testing"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/sessiontest"
)

// Config.Running hears the count of running children rise as they start
// and fall back to none once every one has ended.
func TestRunningChildrenAreCounted(t *testing.T) {
	var (
		mu     sync.Mutex
		counts []int
	)
	s, _ := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case sessiontest.IsChild(r):
			w.Text("found it")
		case r.HasToolResult("status:"):
			w.Text("summary")
		default:
			w.ToolCalls(sessiontest.TaskCall("t1", "Explore", "one", "Look at one."), sessiontest.TaskCall("t2", "Explore", "two", "Look at two."))
		}
	}, func(c *engine.Config) {
		c.Running = func(n int) {
			mu.Lock()
			counts = append(counts, n)
			mu.Unlock()
		}
	})
	sessiontest.RunTurn(t, s, "split", nil)
	mu.Lock()
	defer mu.Unlock()
	if len(counts) != 4 || slices.Max(counts) < 1 || counts[len(counts)-1] != 0 {
		t.Fatalf("running counts %v: want two starts and two ends, ending at 0", counts)
	}
}
