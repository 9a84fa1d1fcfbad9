package engine

import (
	"testing"
	"time"
)

// Whatever reaches the engine, limits stay at or under their maxima.
func TestLimitsNeverExceedTheirMaxima(t *testing.T) {
	huge := Limits{
		MaxSteps: 1 << 30, ChildStepsReadOnly: 1 << 30, ChildStepsWrite: 1 << 30,
		ChildTimeout: 1 << 62, ToolOutputChars: 1 << 30, ResultChars: 1 << 30,
		MaxConcurrent: 1 << 30, MaxDepth: 1 << 30, CommandTimeout: 1 << 62, ReplyMaxBytes: 1 << 30, ContextFileBytes: 1 << 30,
		WakeTurns: 1 << 30, BackgroundPerPrompt: 1 << 30, VerifyTimeout: 1 << 62,
	}
	if got := limitsWithDefaults(huge); got != MaxLimits {
		t.Fatalf("limits = %+v, want the maxima %+v", got, MaxLimits)
	}
	if got := limitsWithDefaults(Limits{}).ReplyMaxBytes; got != 4<<20 {
		t.Fatalf("default reply cap = %d, want 4 MiB", got)
	}
	if got := retryAfterMax(48 * time.Hour); got != MaxRetryAfter {
		t.Fatalf("retry-after max = %v, want %v", got, MaxRetryAfter)
	}
	if got := retryAfterMax(0); got != DefaultRetryAfterMax {
		t.Fatalf("default retry-after max = %v", got)
	}
}
