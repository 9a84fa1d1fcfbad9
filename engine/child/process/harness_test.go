package process_test

import (
	"os"
	"runtime/pprof"
	"slices"
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

// testTimeout guards against hangs only; no test asserts on durations.
const testTimeout = 60 * time.Second

// watch submits prompt and hands every event to see until the main
// agent's turn ends, which it returns.
func watch(t *testing.T, s *engine.Session, prompt string, see func(event.Event)) event.TurnEnded {
	t.Helper()
	if err := s.Submit(prompt); err != nil {
		t.Fatalf("Submit: %v", err)
	}
	deadline := time.After(testTimeout)
	for {
		select {
		case ev, ok := <-s.Events():
			if !ok {
				t.Fatal("the session ended before the turn did")
			}
			see(ev)
			if e, ok := ev.(event.TurnEnded); ok && e.Agent == event.MainAgent {
				return e
			}
		case <-deadline:
			_ = pprof.Lookup("goroutine").WriteTo(os.Stderr, 1)
			t.Fatal("the turn did not end")
		}
	}
}

// isChild reports whether a request comes from a child: only the main
// agent is offered the task tool.
func isChild(r *llmtest.Request) bool {
	return !slices.Contains(r.ToolNames(), child.TaskToolName)
}

// toolResults are the tool results a request carries.
func toolResults(r *llmtest.Request) []string {
	var out []string
	for _, m := range r.Body.Messages {
		if m.Role == "tool" {
			out = append(out, m.Content)
		}
	}
	return out
}
