package engine

import (
	"time"

	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/llm"
)

// MaxLimits are the hard maxima of Limits: no configuration exceeds them,
// so a config file (a cloned repository's included) cannot make a tool
// result, a child or a reply unbounded in practice. cmd refuses values
// above them with the key and the maximum; the engine lowers whatever
// still reaches it.
var MaxLimits = Limits{
	MaxSteps:            1000,
	ChildStepsReadOnly:  1000,
	ChildStepsWrite:     1000,
	ChildTimeout:        24 * time.Hour,
	ToolOutputChars:     1_000_000,
	ResultChars:         200_000,
	MaxConcurrent:       64,
	MaxDepth:            3,
	CommandTimeout:      24 * time.Hour,
	ReplyMaxBytes:       llm.MaxReplyBytes,
	ContextFileBytes:    4 << 20,
	WakeTurns:           100,
	BackgroundPerPrompt: 100,
	VerifyTimeout:       child.MaxVerifyTimeout,
}

// clampRunners lowers each runner's max_concurrent to the maximum of
// every max_concurrent.
func clampRunners(by map[string]int) map[string]int {
	out := make(map[string]int, len(by))
	for runner, n := range by {
		out[runner] = min(n, MaxLimits.MaxConcurrent)
	}
	return out
}

// clampLimits lowers every limit above its maximum.
func clampLimits(l Limits) Limits {
	m := MaxLimits
	l.MaxSteps = min(l.MaxSteps, m.MaxSteps)
	l.ChildStepsReadOnly = min(l.ChildStepsReadOnly, m.ChildStepsReadOnly)
	l.ChildStepsWrite = min(l.ChildStepsWrite, m.ChildStepsWrite)
	l.ChildTimeout = min(l.ChildTimeout, m.ChildTimeout)
	l.ToolOutputChars = min(l.ToolOutputChars, m.ToolOutputChars)
	l.ResultChars = min(l.ResultChars, m.ResultChars)
	l.MaxConcurrent = min(l.MaxConcurrent, m.MaxConcurrent)
	l.MaxDepth = min(l.MaxDepth, m.MaxDepth)
	l.CommandTimeout = min(l.CommandTimeout, m.CommandTimeout)
	l.ReplyMaxBytes = min(l.ReplyMaxBytes, m.ReplyMaxBytes)
	l.ContextFileBytes = min(l.ContextFileBytes, m.ContextFileBytes)
	l.WakeTurns = min(l.WakeTurns, m.WakeTurns)
	l.BackgroundPerPrompt = min(l.BackgroundPerPrompt, m.BackgroundPerPrompt)
	l.VerifyTimeout = min(l.VerifyTimeout, m.VerifyTimeout)
	return l
}

// retryAfterMax is the configured longest Retry-After, defaulted and
// lowered to MaxRetryAfter.
func retryAfterMax(d time.Duration) time.Duration {
	if d <= 0 {
		return DefaultRetryAfterMax
	}
	return min(d, MaxRetryAfter)
}

// defaultRetryDelays are the waits before retrying a request the provider
// refused for a passing reason (rate limit, server error, a timeout)
// without saying how long to wait.
var defaultRetryDelays = []time.Duration{2 * time.Second, 6 * time.Second}

// DefaultRetryAfterMax is the longest Retry-After honoured when the
// configuration does not say ([network] retry_after_max_s).
const DefaultRetryAfterMax = 60 * time.Second

// MaxRetryAfter is the hard maximum of retry_after_max_s.
const MaxRetryAfter = time.Hour
