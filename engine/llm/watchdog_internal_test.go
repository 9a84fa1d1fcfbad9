package llm

import (
	"context"
	"errors"
	"testing"
	"time"
)

// A watchdog whose timer fires long after it was due (the process was
// stopped: ctrl+z during a reply, then fg minutes later) does not blame
// the endpoint for the silence: the reply sent meanwhile gets a grace to
// be read. A timer that fires on time still ends the request.
func TestAWatchdogFiringLateAfterAStopGivesTheEndpointAGrace(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	w := startWatchdog(Timeouts{FirstByte: time.Hour, Idle: time.Hour}, cancel)
	defer w.stop()
	w.progress()

	// The process stopped for a minute past the idle deadline: the timer
	// was due then and fires only now.
	w.mu.Lock()
	w.deadline = time.Now().Add(-time.Minute)
	w.due = w.deadline
	w.mu.Unlock()
	w.fire()
	if ctx.Err() != nil {
		t.Fatalf("a timer late by a stop ended the request: %v", context.Cause(ctx))
	}
	w.mu.Lock()
	left := time.Until(w.deadline)
	w.mu.Unlock()
	if left <= 0 || left > afterPauseGrace {
		t.Fatalf("after the stop the endpoint has %v, want up to %v", left, afterPauseGrace)
	}

	// The grace ran out with nothing read: the timer fires on time, and
	// the endpoint's silence is reported.
	w.mu.Lock()
	w.deadline = time.Now().Add(-time.Millisecond)
	w.due = w.deadline
	w.mu.Unlock()
	w.fire()
	var te *TimeoutError
	if !errors.As(context.Cause(ctx), &te) || te.Setting != SettingIdle {
		t.Fatalf("a timer on time did not end the request with the idle timeout: %v", context.Cause(ctx))
	}
}
