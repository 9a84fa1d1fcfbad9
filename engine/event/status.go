package event

import (
	"encoding/json"
	"fmt"
	"time"
)

// Status is how an agent's run ended. It always comes from what happened
// at run time, never from the model's text.
type Status string

// The statuses an agent run can end with.
const (
	StatusRunning     Status = "running"
	StatusCompleted   Status = "completed"
	StatusMaxSteps    Status = "max_steps"
	StatusTimedOut    Status = "timed_out"
	StatusFailed      Status = "failed"
	StatusCancelled   Status = "cancelled"
	StatusDenied      Status = "denied"
	StatusInterrupted Status = "interrupted"
	// StatusBudgetExceeded: its token or cost budget ran out, and it
	// reported in one last step without tools.
	StatusBudgetExceeded Status = "budget_exceeded"
	// StatusStopped: the person wound it down, and it reported in one
	// last step without tools.
	StatusStopped Status = "stopped"
)

// Word is how the status reads in a summary line or a result's heading:
// "done", "timed out", "max steps", else the status as it is.
func (s Status) Word() string {
	switch s {
	case StatusCompleted:
		return "done"
	case StatusTimedOut:
		return "timed out"
	case StatusMaxSteps:
		return "max steps"
	case StatusBudgetExceeded:
		return "over budget"
	}
	return string(s)
}

// Stats sums up an agent run.
type Stats struct {
	ToolCalls int           `json:"tool_calls"`
	Steps     int           `json:"steps"`
	Duration  time.Duration `json:"duration"`
	Usage     Usage         `json:"usage"`
}

// Line renders the stats the way the parent and the person read them:
// "8 tools · 5.1s · 3,214 tokens · $0.0041".
func (s Stats) Line() string {
	line := fmt.Sprintf("%s · %.1fs · %s tokens", Plural(s.ToolCalls, "tool"), s.Duration.Seconds(), groupThousands(s.Usage.TotalTokens))
	if s.Usage.CostKnown {
		line += fmt.Sprintf(" · $%.4f", s.Usage.Cost)
	}
	return line
}

// groupThousands writes n with comma separators (3214 → "3,214").
func groupThousands(n int) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return "-" + groupThousands(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// MarshalJSON adds duration_ms beside the Go duration, for scripts that
// read stream-json and transcripts.
func (s Stats) MarshalJSON() ([]byte, error) {
	type plain Stats
	return json.Marshal(struct {
		plain
		DurationMS int64 `json:"duration_ms"`
	}{plain(s), s.Duration.Milliseconds()})
}
