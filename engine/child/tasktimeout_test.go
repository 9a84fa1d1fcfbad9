package child_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/sessiontest"
)

// A model-supplied timeout_s may shorten the configured child timeout but
// never lengthen it: a prompt-injected model must not buy its child a day.
func TestTaskTimeoutOnlyLowersTheConfiguredLimit(t *testing.T) {
	cases := []struct {
		name     string
		timeoutS int
		want     time.Duration
	}{
		{"raise refused", 86400, 30 * time.Second},
		{"lower kept", 5, 5 * time.Second},
		{"equal kept", 30, 30 * time.Second},
		{"absent takes the limit", 0, 30 * time.Second},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			args := `{"description":"look","prompt":"look around","subagent_type":"explore"}`
			if tc.timeoutS > 0 {
				args = fmt.Sprintf(`{"description":"look","prompt":"look around","subagent_type":"explore","timeout_s":%d}`, tc.timeoutS)
			}
			s, _ := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
				switch {
				case sessiontest.IsChild(r):
					w.Text("nothing here")
				case r.Index == 0:
					w.ToolCalls(llmtest.Call{ID: "t1", Name: "task", Args: args})
				default:
					w.Text("done")
				}
			}, func(c *engine.Config) { c.Limits.ChildTimeout = 30 * time.Second })
			log := sessiontest.RunTurn(t, s, "go", nil)
			started := sessiontest.Of[event.AgentStarted](log)
			if len(started) != 1 || started[0].Timeout != tc.want {
				t.Fatalf("child started %+v, want timeout %s", started, tc.want)
			}
		})
	}
}
