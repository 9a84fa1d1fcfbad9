package event

import (
	"fmt"
	"time"
)

// Retrying says a model request failed for a passing reason (a rate
// limit, a server error, a silent endpoint) and will be sent again at At.
// It carries the time rather than a text so the UI can count down.
type Retrying struct {
	Meta
	// Attempt is this retry's number, from 1; Attempts is how many
	// retries there will be at most.
	Attempt  int `json:"attempt"`
	Attempts int `json:"attempts"`
	// At is when the request is sent again.
	At time.Time `json:"at"`
	// Reason is what failed, short: "rate limited, Retry-After",
	// "provider error (503)", "no data from the endpoint for 120 s
	// (idle_timeout_s)".
	Reason string `json:"reason"`
}

// Kind implements Event.
func (Retrying) Kind() string { return "retrying" }

// Line renders the retry as seen at now, e.g. "retrying in 30s (1/3) ·
// rate limited, Retry-After"; the wait is rounded to whole seconds, and
// never shows 0s while still waiting.
func (r Retrying) Line(now time.Time) string {
	wait := "now"
	if left := r.At.Sub(now); left > 0 {
		wait = fmt.Sprintf("in %ds", max(left.Round(time.Second)/time.Second, 1))
	}
	return fmt.Sprintf("retrying %s (%d/%d) · %s", wait, r.Attempt, r.Attempts, r.Reason)
}
